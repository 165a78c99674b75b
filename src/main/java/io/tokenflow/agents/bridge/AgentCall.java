package io.tokenflow.agents.bridge;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.workers.TaskResult;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads an agent's 2xx answer: {@code {"task_id", "status": "success" | "error", "output", "error"}}. Success
 * completes the node with {@code output}; {@code error} fails it permanently with the agent's message.
 */
final class AgentCall {

    private AgentCall() {
    }

    static TaskResult outcome(String agent, JsonMapper json, String body) throws AgentFailure {
        JsonNode answer;
        try {
            answer = json.readTree(body);
        } catch (JacksonException e) {
            answer = null;
        }
        if (answer == null || !answer.isObject()) {
            throw AgentFailure.permanent("invalid_response", "Expected agent '" + agent + "' to answer with a JSON "
                    + "object {status, output, error}, but it answered " + abbreviate(body));
        }
        String status = answer.path("status").asString("");
        switch (status) {
            case "success":
            case "completed":
                return TaskResult.completed(answer.has("output") ? answer.get("output") : json.nullNode());
            case "error":
            case "failed":
                JsonNode error = answer.path("error");
                throw AgentFailure.permanent("agent_error", "Expected agent '" + agent + "' to succeed, but it "
                        + "reports an error: " + (error.isString() ? error.stringValue() : error.toString()));
            default:
                throw AgentFailure.permanent("invalid_response", "Expected the status of agent '" + agent
                        + "' to be success or error, but found " + (answer.has("status") ? answer.get("status")
                        : "none"));
        }
    }

    private static String abbreviate(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? "nothing" : stripped.length() <= 200 ? stripped : stripped.substring(0, 200) + "…";
    }
}
