package io.tokenflow.agents.llm;

import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.Decision;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code route}: the model names the next nodes and why. The last call counts. A choice outside the allow-list is
 * recorded as made (the coordinator refuses it and takes the default) and the model is told so, to choose again.
 */
@Component
class RouteTool implements AgentTool {

    @Override
    public String name() {
        return "route";
    }

    @Override
    public boolean availableFor(AgentRun run) {
        return run.routes();
    }

    @Override
    public ObjectNode definition(AgentRun run) {
        ObjectNode function = JsonNodeFactory.instance.objectNode();
        function.put("name", name());
        function.put("description", "Choose where the workflow run goes after this node: one or more of "
                + run.availableNextNodes() + ", with your reasoning. Any other node is refused and the run goes to "
                + run.defaultNextNodes() + " instead.");
        ObjectNode parameters = function.putObject("parameters");
        parameters.put("type", "object");
        ObjectNode properties = parameters.putObject("properties");
        ObjectNode nextNodes = properties.putObject("next_nodes");
        nextNodes.put("type", "array").put("minItems", 1).put("uniqueItems", true);
        ObjectNode items = nextNodes.putObject("items").put("type", "string");
        run.availableNextNodes().forEach(items.putArray("enum")::add);
        properties.putObject("reasoning").put("type", "string").put("description", "Why these nodes");
        parameters.putArray("required").add("next_nodes").add("reasoning");
        return function;
    }

    @Override
    public String call(JsonNode arguments, AgentSession session) throws ToolCallException {
        Decision decision = Decision.from(arguments).orElseThrow(() -> new ToolCallException(
                "Expected {\"next_nodes\": [...], \"reasoning\": \"...\"}, but found " + arguments));
        session.decide(decision);
        List<String> allowed = session.run().availableNextNodes();
        List<String> refused = decision.nextNodes().stream().filter(node -> !allowed.contains(node)).toList();
        if (decision.nextNodes().isEmpty() || !refused.isEmpty()) {
            throw new ToolCallException("Expected next nodes among " + allowed + ", but " + (refused.isEmpty()
                    ? "none were named" : refused + " are not allowed") + "; as it stands the run goes to "
                    + session.run().defaultNextNodes() + ". Call route again to choose allowed nodes.");
        }
        return "Recorded: the run continues at " + decision.nextNodes() + ". Now give your final answer.";
    }
}
