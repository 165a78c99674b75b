package io.tokenflow.agents.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import io.tokenflow.agents.AgentRun;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The job message an external runner takes from {@code agent:jobs} (seed 001/003's shape, version 1.0, with
 * Tokenflow's additions {@code input}, {@code run_input}, {@code available_next_nodes} and {@code default_next_nodes}).
 * The job id derives from the token id, so a redelivered token names the same job.
 */
final class AgentJob {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AgentJob() {
    }

    static String idOf(String token) {
        return UUID.nameUUIDFromBytes(("agent-job:" + token).getBytes(StandardCharsets.UTF_8)).toString();
    }

    static ObjectNode of(AgentRun run, String jobId, Duration timeout) {
        ObjectNode job = NODES.objectNode();
        job.put("version", "1.0");
        job.put("job_id", jobId);
        job.put("run_id", run.task().run().toString());
        job.put("node_id", run.node().id());
        job.put("token", run.task().token());
        JsonNode prompt = run.settings().path("prompt");
        job.put("prompt", prompt.isString() ? prompt.stringValue() : "");
        job.set("input", run.task().input());
        job.set("run_input", run.runInput());
        ObjectNode context = job.putObject("context");
        context.put("session_id", run.task().run().toString());
        ArrayNode previous = context.putArray("previous_results");
        run.outputs().forEach((node, output) -> previous.addObject().put("node_id", node).set("output", output));
        job.set("agent_config", run.settings());
        if (run.routes()) {
            run.availableNextNodes().forEach(job.putArray("available_next_nodes")::add);
            run.defaultNextNodes().forEach(job.putArray("default_next_nodes")::add);
        }
        job.put("timeout_sec", Math.max(1, timeout.toSeconds()));
        job.put("retry_count", run.task().attempt() - 1);
        return job;
    }
}
