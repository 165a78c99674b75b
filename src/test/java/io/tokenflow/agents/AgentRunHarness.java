package io.tokenflow.agents;

import java.util.Map;
import java.util.UUID;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.designer.WorkflowSnapshot;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerHarness;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plays the coordinator's part for agent workers: stores a fixture workflow, starts a run of it in Redis the way
 * start-run.lua does (meta hash with workflow, version, revision and input), fills its context with earlier outputs,
 * and puts a token for one node on its worker's stream.
 */
final class AgentRunHarness {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final WorkerHarness workers;
    private final WorkflowSnapshot workflow;

    AgentRunHarness(RedisClusterCommands<String, String> redis, RedisKeys keys, WorkerHarness workers,
                    CreateWorkflow create, String fixture) {
        this.redis = redis;
        this.keys = keys;
        this.workers = workers;
        this.workflow = create.create(JSON.readTree(TestWorkflows.fixture(fixture, TestWorkflows.unique(fixture
                .replace('/', '-')))), "agent-tests");
    }

    /** A running run with the given input and earlier outputs (context key → output JSON text). */
    UUID start(String input, Map<String, String> outputs) {
        UUID run = workers.runOnShardZero();
        RedisKeys.RunKeys runKeys = keys.run(run, 0);
        redis.hset(runKeys.meta(), Map.of("status", "RUNNING", "workflow", workflow.id().toString(),
                "version", Integer.toString(workflow.version()), "revision", "0", "input", input));
        if (!outputs.isEmpty()) {
            redis.hset(runKeys.ctx(), outputs);
        }
        return run;
    }

    /** Puts a token for {@code node} on the {@code worker} stream and returns its id. */
    String send(UUID run, String node, String worker, String input, String config) {
        String token = WorkerHarness.newTokenId();
        sendAttempt(run, token, node, worker, input, config, 1);
        return token;
    }

    /** Puts a token on the {@code worker} stream again, as a retry does: same id, the given attempt. */
    void sendAttempt(UUID run, String token, String node, String worker, String input, String config, int attempt) {
        Map<String, String> fields = WorkerHarness.token(token, run, worker, input, config);
        fields.put("node", node);
        fields.put("attempt", Integer.toString(attempt));
        redis.xadd(keys.taskStream(worker, 0), fields);
    }
}
