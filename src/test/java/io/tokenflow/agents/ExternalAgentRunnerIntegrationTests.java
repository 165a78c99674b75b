package io.tokenflow.agents;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.lettuce.core.KeyValue;
import io.tokenflow.redis.DedicatedConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerHarness;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Agent nodes with {@code config.runner: "external"} against a fake seed-001 agent runner speaking raw Redis:
 * {@code BLPOP agent:jobs}, then {@code RPUSH agent:results:<job_id>} (in time, or after the node gave up).
 */
@AgentIntegrationTest
class ExternalAgentRunnerIntegrationTests {

    private static final String ONE_SECOND = "{\"runner\":\"external\",\"timeout_s\":1}";

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    @Autowired
    CreateWorkflow create;

    private WorkerHarness workers;
    private AgentRunHarness harness;
    private DedicatedConnection runnerConnection;
    private RedisClusterCommands<String, String> runner;

    @BeforeEach
    void open() {
        workers = new WorkerHarness(connections.commands(), keys);
        harness = new AgentRunHarness(connections.commands(), keys, workers, create, "agents/external-router");
        runnerConnection = connections.dedicated();
        runner = runnerConnection.sync();
        runner.del("agent:jobs");
    }

    @AfterEach
    void close() {
        workers.close();
        runnerConnection.close();
    }

    @Test
    void publishesAJobAndCompletesWithTheRunnersResultAndDecision() {
        UUID run = harness.start("{\"ticket\":7}", Map.of("intake", "{\"subject\":\"invoice twice\"}"));
        String token = harness.send(run, "triage", "agent", "{\"subject\":\"invoice twice\"}",
                "{\"runner\":\"external\",\"timeout_s\":3}");

        JsonNode job = takeJob();
        String jobId = job.get("job_id").asString();
        ObjectNode result = (ObjectNode) json("{\"version\":\"1.0\",\"status\":\"completed\",\"result\":{\"queue\":\"billing\"},"
                + "\"next_nodes\":[\"billing\"],\"reasoning\":\"it is about an invoice\","
                + "\"metadata\":{\"tokens_used\":123,\"llm_model\":\"gpt-4o\"}}");
        result.put("job_id", jobId);
        runner.rpush("agent:results:" + jobId, result.toString());
        Map<String, String> completion = workers.awaitCompletion(token);

        assertThat(job.get("version").asString()).isEqualTo("1.0");
        assertThat(job.get("run_id").asString()).isEqualTo(run.toString());
        assertThat(job.get("node_id").asString()).isEqualTo("triage");
        assertThat(job.get("prompt").asString()).isEqualTo("Route the ticket.");
        assertThat(job.get("input")).isEqualTo(json("{\"subject\":\"invoice twice\"}"));
        assertThat(job.get("run_input")).isEqualTo(json("{\"ticket\":7}"));
        assertThat(job.at("/context/previous_results/0")).isEqualTo(json("{\"node_id\":\"intake\","
                + "\"output\":{\"subject\":\"invoice twice\"}}"));
        assertThat(job.get("available_next_nodes")).isEqualTo(json("[\"billing\",\"support\"]"));
        assertThat(job.get("default_next_nodes")).isEqualTo(json("[\"humans\"]"));
        assertThat(job.get("timeout_sec").asInt()).isEqualTo(3);
        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(json(completion.get("decision"))).isEqualTo(json("{\"next_nodes\":[\"billing\"],"
                + "\"reasoning\":\"it is about an invoice\"}"));
        JsonNode output = json(completion.get("output"));
        assertThat(output.get("result")).isEqualTo(json("{\"queue\":\"billing\"}"));
        assertThat(output.get("job_id").asString()).isEqualTo(jobId);
        assertThat(connections.commands().get(keys.llmTokens(run))).isEqualTo("123");
    }

    @Test
    void aFailedJobFailsTheNodeWithTheRunnersError() {
        UUID run = harness.start("{}", Map.of());
        String token = harness.send(run, "triage", "agent", "{}", "{\"runner\":\"external\",\"timeout_s\":3}");

        String jobId = takeJob().get("job_id").asString();
        runner.rpush("agent:results:" + jobId, "{\"job_id\":\"" + jobId + "\",\"status\":\"failed\","
                + "\"error\":\"model refused\"}");
        JsonNode error = json(workers.awaitCompletion(token).get("error"));

        assertThat(error.get("code").asString()).isEqualTo("agent_failed");
        assertThat(error.get("message").asString()).contains("model refused");
    }

    @Test
    void noRunnerAnsweringFailsTransientlyAfterTheTimeoutAndWithdrawsTheJob() {
        String token = harness.send(harness.start("{}", Map.of()), "triage", "agent", "{}", ONE_SECOND);

        String job = await().atMost(Duration.ofSeconds(10)).until(() -> queuedJobOf(token), Objects::nonNull);
        JsonNode error = json(workers.awaitCompletion(token, Duration.ofSeconds(20)).get("error"));

        assertThat(error.get("kind").asString()).isEqualTo("transient");
        assertThat(error.get("code").asString()).isEqualTo("agent_timeout");
        assertThat(error.get("message").asString()).contains("no runner took it from agent:jobs")
                .contains("it is withdrawn");
        assertThat(runner.lrange("agent:jobs", 0, -1)).doesNotContain(job);
    }

    @Test
    void aResultPushedAfterTheTimeoutLandsInAListThatExpires() {
        String token = harness.send(harness.start("{}", Map.of()), "triage", "agent", "{}", ONE_SECOND);
        String results = "agent:results:" + takeJob().get("job_id").asString();

        JsonNode error = json(workers.awaitCompletion(token, Duration.ofSeconds(20)).get("error"));
        runner.rpush(results, "{\"status\":\"completed\",\"result\":{\"queue\":\"late\"}}");

        assertThat(error.get("message").asString()).contains("the runner that took it from agent:jobs did not answer")
                .contains("expires with the list in 3600 s");
        assertThat(runner.ttl(results)).isBetween(3500L, 3600L);
    }

    @Test
    void theNodesNextAttemptTakesTheLateResultOfAnEarlierOne() {
        UUID run = harness.start("{}", Map.of());
        String token = harness.send(run, "triage", "agent", "{}", ONE_SECOND);
        String jobId = takeJob().get("job_id").asString();
        workers.awaitCompletion(token, Duration.ofSeconds(20));
        runner.rpush("agent:results:" + jobId, "{\"status\":\"completed\",\"result\":{\"queue\":\"late\"},"
                + "\"next_nodes\":[\"support\"]}");

        harness.sendAttempt(run, token, "triage", "agent", "{}", ONE_SECOND, 2);
        await().atMost(Duration.ofSeconds(20)).until(() -> workers.completionsOf(token) == 2);
        Map<String, String> completion = workers.poll().get(token);

        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(json(completion.get("output")).get("result")).isEqualTo(json("{\"queue\":\"late\"}"));
        assertThat(json(completion.get("decision")).get("next_nodes")).isEqualTo(json("[\"support\"]"));
        assertThat(runner.lrange("agent:jobs", 0, -1)).as("the second attempt's job, withdrawn").isEmpty();
        assertThat(runner.ttl("agent:results:" + jobId)).isPositive();
    }

    private String queuedJobOf(String token) {
        return runner.lrange("agent:jobs", 0, -1).stream()
                .filter(job -> json(job).path("token").asString("").equals(token)).findFirst().orElse(null);
    }

    private JsonNode takeJob() {
        KeyValue<String, String> job = runner.blpop(10, "agent:jobs");
        assertThat(job).as("a job on agent:jobs").isNotNull();
        return json(job.getValue());
    }
}
