package io.tokenflow.agents.llm;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.agents.pipeline.Pipeline;
import io.tokenflow.agents.pipeline.PipelineException;
import io.tokenflow.cas.CasStore;
import io.tokenflow.tenancy.RunTenants;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code execute_pipeline}: runs a chain of data primitives on the node's input (or on {@code data} when given).
 * The model reads the result; a result longer than {@code tokenflow.agents.pipeline.max-result-chars} is stored in
 * CAS and the model reads its reference and a preview.
 */
@Component
class ExecutePipelineTool implements AgentTool {

    private final Pipeline pipeline;
    private final CasStore cas;
    private final RunTenants tenants;
    private final JsonMapper json;
    private final int maxResultChars;

    ExecutePipelineTool(Pipeline pipeline, CasStore cas, RunTenants tenants, JsonMapper json,
                        AgentSettings settings) {
        this.pipeline = pipeline;
        this.cas = cas;
        this.tenants = tenants;
        this.json = json;
        this.maxResultChars = settings.pipeline().maxResultChars();
    }

    @Override
    public String name() {
        return "execute_pipeline";
    }

    @Override
    public boolean availableFor(AgentRun run) {
        return true;
    }

    @Override
    public ObjectNode definition(AgentRun run) {
        StringBuilder description = new StringBuilder("Run a data pipeline: steps in order, each on the previous "
                + "step's result, starting from \"data\" (default: this node's input). Steps:");
        pipeline.primitives().forEach((name, usage) -> description.append("\n- ").append(usage));
        ObjectNode function = JsonNodeFactory.instance.objectNode();
        function.put("name", name());
        function.put("description", description.toString());
        ObjectNode parameters = function.putObject("parameters");
        parameters.put("type", "object");
        ObjectNode properties = parameters.putObject("properties");
        ObjectNode steps = properties.putObject("pipeline");
        steps.put("type", "array").put("minItems", 1);
        ObjectNode step = steps.putObject("items").put("type", "object");
        ObjectNode stepName = step.putObject("properties").putObject("step").put("type", "string");
        pipeline.primitives().keySet().forEach(stepName.putArray("enum")::add);
        step.putArray("required").add("step");
        properties.putObject("data").put("description", "The data the first step works on; default: the node's "
                + "input");
        parameters.putArray("required").add("pipeline");
        return function;
    }

    @Override
    public String call(JsonNode arguments, AgentSession session) throws ToolCallException {
        AgentRun run = session.run();
        JsonNode data = arguments.has("data") ? arguments.get("data") : run.task().input();
        try {
            return presented(run.task().run(), pipeline.run(arguments.path("pipeline"), data, run.outputs()));
        } catch (PipelineException e) {
            throw new ToolCallException(e.getMessage());
        }
    }

    private String presented(UUID runId, JsonNode result) {
        String text = json.writeValueAsString(result);
        if (text.length() <= maxResultChars) {
            return text;
        }
        ObjectNode stored = JsonNodeFactory.instance.objectNode();
        stored.put("result_ref", cas.put(tenants.requireOfRun(runId), text.getBytes(StandardCharsets.UTF_8),
                "application/json"));
        if (result.isArray()) {
            stored.put("row_count", result.size());
        }
        stored.put("preview", text.substring(0, maxResultChars / 2) + "…");
        return json.writeValueAsString(stored);
    }
}
