package io.tokenflow.agents.llm;

import io.tokenflow.agents.Decision;
import io.tokenflow.workers.TaskResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The output of an agent node: {@code answer} (the model's final reply, parsed when it is JSON), {@code model},
 * {@code rounds}, {@code tokens}, {@code tool_calls}, and for agent-driven branches {@code decision}, which also
 * travels as the completion's {@code decision}: the {@code route} call, else a decision in a JSON answer, else none.
 */
final class AgentAnswer {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AgentAnswer() {
    }

    static TaskResult of(AgentSession session, String content, String model) {
        JsonNode answer = parsed(content);
        ObjectNode output = NODES.objectNode();
        output.set("answer", answer);
        output.put("model", model);
        output.put("rounds", session.rounds());
        output.put("tokens", session.tokens());
        output.set("tool_calls", session.toolCalls());
        if (!session.run().routes()) {
            return TaskResult.completed(output);
        }
        Decision decision = session.decision().or(() -> Decision.from(answer))
                .orElseGet(() -> new Decision(java.util.List.of(), "The agent chose no next node"));
        output.set("decision", decision.toJson());
        return TaskResult.routed(output, decision.toJson());
    }

    private static JsonNode parsed(String content) {
        if (content == null) {
            return NODES.nullNode();
        }
        String text = content.strip();
        if (text.startsWith("```")) {
            text = text.replaceFirst("^```[a-zA-Z]*\\s*", "").replaceFirst("\\s*```$", "");
        }
        if (text.startsWith("{") || text.startsWith("[")) {
            try {
                return JSON.readTree(text);
            } catch (JacksonException notJson) {
                return NODES.stringNode(content);
            }
        }
        return NODES.stringNode(content);
    }
}
