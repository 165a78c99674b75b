package io.tokenflow.agents.llm;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.RunPatcher;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code patch_workflow}: an RFC 6902 patch to the agent's own run, through the {@link RunPatcher} port. Offered only
 * when a patcher exists; a refused patch is reported to the model with the patcher's reason.
 */
@Component
class PatchWorkflowTool implements AgentTool {

    private final ObjectProvider<RunPatcher> patchers;

    PatchWorkflowTool(ObjectProvider<RunPatcher> patchers) {
        this.patchers = patchers;
    }

    @Override
    public String name() {
        return "patch_workflow";
    }

    @Override
    public boolean availableFor(AgentRun run) {
        return patchers.getIfUnique() != null;
    }

    @Override
    public ObjectNode definition(AgentRun run) {
        ObjectNode function = JsonNodeFactory.instance.objectNode();
        function.put("name", name());
        function.put("description", "Change this running workflow with an RFC 6902 JSON Patch against its "
                + "definition ({\"name\", \"nodes\": [{\"id\", \"type\", \"config\", ...}], \"edges\": [{\"from\", "
                + "\"to\"}]}), e.g. [{\"op\":\"add\",\"path\":\"/nodes/-\",\"value\":{...}}, {\"op\":\"add\",\"path\":"
                + "\"/edges/-\",\"value\":{\"from\":\"" + run.node().id() + "\",\"to\":\"new_node\"}}]. The patched "
                + "workflow must compile; nodes added after this one run when the run reaches them.");
        ObjectNode parameters = function.putObject("parameters");
        parameters.put("type", "object");
        ObjectNode properties = parameters.putObject("properties");
        properties.putObject("patch").put("type", "array").put("minItems", 1).putObject("items").put("type", "object");
        properties.putObject("description").put("type", "string").put("description", "What the patch does, and why");
        parameters.putArray("required").add("patch");
        return function;
    }

    @Override
    public String call(JsonNode arguments, AgentSession session) throws ToolCallException {
        RunPatcher patcher = patchers.getIfUnique();
        JsonNode patch = arguments.path("patch");
        if (patcher == null) {
            throw new ToolCallException("Expected a run patcher, but this instance has none");
        }
        if (!patch.isArray() || patch.isEmpty()) {
            throw new ToolCallException("Expected \"patch\" to be a non-empty list of JSON Patch operations, but found "
                    + (patch.isMissingNode() ? "none" : patch));
        }
        AgentRun run = session.run();
        try {
            String revision = patcher.patch(run.task().run(), patch, "agent:" + run.node().id());
            return "Patched: the run now executes revision " + revision + ".";
        } catch (RuntimeException e) {
            throw new ToolCallException("Expected the patch to be accepted, but it was refused: " + e.getMessage());
        }
    }
}
