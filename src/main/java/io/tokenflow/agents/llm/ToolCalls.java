package io.tokenflow.agents.llm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Answers the model's tool calls of one turn with one {@code tool} message each; failures are answers too. */
final class ToolCalls {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<String, AgentTool> tools = new LinkedHashMap<>();
    private final AgentSession session;

    ToolCalls(List<AgentTool> offered, AgentSession session) {
        offered.forEach(tool -> tools.put(tool.name(), tool));
        this.session = session;
    }

    void answer(JsonNode calls, ArrayNode messages) {
        for (JsonNode call : calls) {
            String name = call.path("function").path("name").asString("");
            JsonNode arguments = arguments(call.path("function").path("arguments"));
            String content;
            boolean succeeded = false;
            try {
                content = run(name, arguments);
                succeeded = true;
            } catch (ToolCallException e) {
                content = JsonNodeFactory.instance.objectNode().put("error", e.getMessage()).toString();
            }
            session.logToolCall(name, arguments, succeeded, content);
            messages.addObject().put("role", "tool").put("tool_call_id", call.path("id").asString(""))
                    .put("name", name).put("content", content);
        }
    }

    private String run(String name, JsonNode arguments) throws ToolCallException {
        AgentTool tool = tools.get(name);
        if (tool == null) {
            throw new ToolCallException("Expected a tool among " + tools.keySet() + ", but found '" + name + "'");
        }
        if (!arguments.isObject()) {
            throw new ToolCallException("Expected the arguments to be a JSON object, but found " + arguments);
        }
        return tool.call(arguments, session);
    }

    /** Arguments as servers send them: JSON text (OpenAI) or an object (some compatible servers). */
    private static JsonNode arguments(JsonNode raw) {
        if (!raw.isString()) {
            return raw.isMissingNode() ? JsonNodeFactory.instance.objectNode() : raw;
        }
        try {
            return JSON.readTree(raw.stringValue().isBlank() ? "{}" : raw.stringValue());
        } catch (JacksonException e) {
            return JsonNodeFactory.instance.stringNode(raw.stringValue());
        }
    }
}
