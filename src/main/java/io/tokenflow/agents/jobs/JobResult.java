package io.tokenflow.agents.jobs;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.Decision;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads a runner's result (seed 001/003: {@code status}, {@code result_ref}, {@code result_preview},
 * {@code metadata}, {@code error}; Tokenflow also reads an inline {@code result} and a routing choice as
 * {@code decision} or top-level {@code next_nodes}/{@code reasoning}).
 */
final class JobResult {

    private JobResult() {
    }

    static TaskResult toTaskResult(String jobId, JsonNode result, boolean routes) throws AgentFailure {
        String status = result.path("status").asString("");
        if (status.equals("failed") || status.equals("error")) {
            JsonNode error = result.path("error");
            throw AgentFailure.permanent("agent_failed", "Expected agent job " + jobId + " to complete, but the "
                    + "runner reports it failed: " + (error.isString() ? error.stringValue() : error.toString()));
        }
        if (!status.equals("completed") && !status.equals("success")) {
            throw AgentFailure.permanent("invalid_result", "Expected the status of agent job " + jobId
                    + " to be completed or failed, but found '" + status + "'");
        }
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        copy(result, output, "result", "result_ref", "result_preview", "metadata");
        output.put("job_id", jobId);
        if (!routes) {
            return TaskResult.completed(output);
        }
        Decision decision = Decision.from(result.path("decision")).or(() -> Decision.from(result))
                .orElseGet(() -> new Decision(java.util.List.of(), "The external agent chose no next node"));
        output.set("decision", decision.toJson());
        return TaskResult.routed(output, decision.toJson());
    }

    private static void copy(JsonNode from, ObjectNode to, String... members) {
        for (String member : members) {
            if (from.has(member)) {
                to.set(member, from.get(member));
            }
        }
    }
}
