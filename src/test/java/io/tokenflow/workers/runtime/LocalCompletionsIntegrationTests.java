package io.tokenflow.workers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tokenflow.IntegrationTest;
import io.tokenflow.coordinator.LocalCompletions;
import io.tokenflow.coordinator.RedisConnections;
import io.tokenflow.coordinator.RedisKeys;
import io.tokenflow.coordinator.StepOutcome;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Built-in workers of an instance that hosts the coordinator hand their completions to it in-process: no completion
 * passes through the completions stream, and a worker that dies after routing a token but before acknowledging it
 * loses nothing and counts nothing twice (the token is claimed and run again, the second completion absorbed).
 */
@IntegrationTest
@TestPropertySource(properties = {"tokenflow.workers.claim-idle=500ms", "tokenflow.workers.claim-interval=200ms"})
@Import(LocalCompletionsIntegrationTests.Functions.class)
class LocalCompletionsIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Tokens the {@code recorded} function ran, in order. */
    private static final Queue<String> RECORDED = new ConcurrentLinkedQueue<>();

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired LocalCompletions local;
    @Autowired WorkerRuntime workers;

    @Test
    void routesTheCompletionsOfBuiltInWorkersWithoutTheCompletionsStream() {
        String workflow = workflow("""
                {"name": "local-chain", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "echo"}, "input": {"n": "${workflow.input.n}"}},
                  {"id": "B", "type": "function", "config": {"function": "echo"}},
                  {"id": "C", "type": "function", "config": {"function": "echo"}, "input": {"a": "${nodes.A.output.n}"}}],
                 "edges": [{"from": "A", "to": "B"}, {"from": "B", "to": "C"}]}""");
        String completions = keys.completionsStream(0);
        String before = quietLastId(completions);

        UUID run = start(workflow, "{\"n\": 7}");

        awaitStatus(run, "COMPLETED");
        assertThat(lastId(completions)).as("no entry was added to the completions stream").isEqualTo(before);
        assertThat(nodeCompletions(run)).containsExactly("A", "B", "C");
        assertThat(jdbc.sql("select output::text from node_executions where run_id = :id and node_id = 'C'")
                .param("id", run).query(String.class).single()).isEqualTo("{\"a\": 7}");
    }

    @Test
    void aWorkerThatDiesAfterRoutingATokenButBeforeAcknowledgingItLosesNothingAndCountsNothingTwice() {
        String workflow = workflow("""
                {"name": "local-crash", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "recorded"}, "input": {"by": "live"}},
                  {"id": "B", "type": "function", "config": {"function": "sleep", "args": {"ms": 2000}}}],
                 "edges": [{"from": "A", "to": "B"}]}""");
        String deadWorker = "dead-" + UUID.randomUUID();
        String token;
        UUID run;
        workers.stop();
        try (StatefulRedisConnection<String, String> connection = redis.dedicated()) {
            run = start(workflow, null);
            String stream = keys.taskStream("function", keys.shardOf(run));
            List<StreamMessage<String, String>> read = connection.sync().xreadgroup(
                    Consumer.from(keys.workerGroup("function"), deadWorker), XReadArgs.Builder.count(1),
                    XReadArgs.StreamOffset.lastConsumed(stream));
            assertThat(read).hasSize(1);
            Map<String, String> taken = read.get(0).getBody();
            assertThat(taken).containsEntry("run", run.toString()).containsEntry("node", "A");
            token = taken.get("token");
            // what a worker sends for the token, routed in-process; then it dies before acknowledging the token
            LocalCompletions.Sent sent = local.send(stream + "/" + read.get(0).getId(), keys.shardOf(run),
                    Map.of("token", token, "run", run.toString(), "node", "A", "status", "completed",
                            "output", "{\"by\":\"dead\"}", "worker", deadWorker,
                            "started_at", Long.toString(System.currentTimeMillis())),
                    connection.async()).orElseThrow();
            assertThat(sent.settle()).isEqualTo(StepOutcome.APPLIED);
        } finally {
            workers.start();
        }

        awaitStatus(run, "COMPLETED");
        assertThat(RECORDED).as("a live worker took the abandoned token over and ran it again").contains(token);
        assertThat(nodeCompletions(run)).as("each node counted once").containsExactly("A", "B");
        assertThat(jdbc.sql("select output::text from node_executions where run_id = :id and node_id = 'A'")
                .param("id", run).query(String.class).single()).as("the first completion stands")
                .isEqualTo("{\"by\": \"dead\"}");
        assertThat(jdbc.sql("select count(*) from rejected_signals where token_id = :token").param("token", token)
                .query(Long.class).single()).as("the duplicate is absorbed, not refused").isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.commands().xpending(
                keys.taskStream("function", keys.shardOf(run)), keys.workerGroup("function")).getCount() == 0);
    }

    private String workflow(String dsl) {
        ObjectNode tree = (ObjectNode) JSON.readTree(dsl);
        tree.put("name", tree.get("name").asString() + "-" + UUID.randomUUID().toString().substring(0, 8));
        return creating.create(tree, "test").name();
    }

    private UUID start(String workflow, String inputs) {
        return starting.start(new StartRunCommand(workflow, null, null, inputs == null ? null : JSON.readTree(inputs),
                null), "test").id();
    }

    private void awaitStatus(UUID run, String status) {
        await().atMost(Duration.ofSeconds(30)).until(() -> status.equals(jdbc.sql(
                "select status from runs where id = :id").param("id", run).query(String.class).optional()
                .orElse("NONE")));
    }

    private List<String> nodeCompletions(UUID run) {
        return jdbc.sql("select node_id from event_log where run_id = :id and event_type = 'node.completed' "
                + "order by seq").param("id", run).query(String.class).list();
    }

    private String lastId(String stream) {
        if (redis.commands().exists(stream) == 0) {
            return "none";
        }
        List<Object> info = redis.commands().xinfoStream(stream);
        return String.valueOf(info.get(info.indexOf("last-generated-id") + 1));
    }

    /** The stream's last entry id once nothing was added to it for a while (earlier tests' runs have settled). */
    private String quietLastId(String stream) {
        String[] last = {lastId(stream)};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
            String now = lastId(stream);
            boolean quiet = now.equals(last[0]);
            last[0] = now;
            return quiet;
        });
        return last[0];
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Functions {

        @Bean
        WorkflowFunction recorded() {
            return new WorkflowFunction() {
                @Override
                public String name() {
                    return "recorded";
                }

                @Override
                public JsonNode apply(FunctionCall call) {
                    RECORDED.add(call.tokenId());
                    return call.input();
                }
            };
        }
    }
}
