package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.IntegrationTest;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;

/**
 * Built-in workers of an instance that hosts the coordinator hand their completions to it in-process: no completion
 * passes through the completions stream, and a worker that dies after routing a token but before acknowledging it
 * loses nothing and counts nothing twice (the token is claimed and run again, the second completion absorbed).
 */
@IntegrationTest
@TestPropertySource(properties = {"tokenflow.coordinator.route-local-completions=true",
        "tokenflow.workers.claim-idle=500ms", "tokenflow.workers.claim-interval=200ms"})
@Import(RecordedFunction.class)
class LocalCompletionsIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired LocalCompletions local;
    /** The built-in workers ({@code io.tokenflow.workers.runtime.WorkerRuntime}). */
    @Autowired @Qualifier("workerRuntime") SmartLifecycle workers;

    EngineHarness engine;

    @BeforeEach
    void setUp() {
        engine = new EngineHarness(creating, starting, jdbc);
    }

    @Test
    void routesTheCompletionsOfBuiltInWorkersWithoutTheCompletionsStream() {
        String workflow = engine.workflow("engine/local-chain");
        List<String> completions = StreamIds.completionsStreams(keys);
        StreamIds ids = new StreamIds(redis.commands());
        String before = ids.quietLastId(completions);

        runChain(engine, workflow);

        assertThat(ids.lastId(completions)).as("no entry was added to the completions stream").isEqualTo(before);
    }

    /** Runs {@code engine/local-chain} (A → B → C) to completion and checks its nodes and output. */
    static void runChain(EngineHarness engine, String workflow) {
        UUID run = engine.start(workflow, "{\"n\": 7}");
        engine.awaitStatus(run, "COMPLETED");
        assertThat(engine.completedNodes(run)).containsExactly("A", "B", "C");
        assertThat(engine.output(run, "C")).isEqualTo(EngineHarness.JSON.readTree("{\"a\": 7}"));
    }

    @Test
    void aWorkerThatDiesAfterRoutingATokenButBeforeAcknowledgingItLosesNothingAndCountsNothingTwice() {
        String workflow = engine.workflow("engine/local-crash");
        String deadWorker = "dead-" + UUID.randomUUID();
        String token;
        UUID run;
        workers.stop();
        try (DedicatedConnection connection = redis.dedicated()) {
            run = engine.start(workflow, null);
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

        engine.awaitStatus(run, "COMPLETED");
        assertThat(RecordedFunction.RECORDED).as("a live worker took the abandoned token over and ran it again").contains(token);
        assertThat(engine.completedNodes(run)).as("each node counted once").containsExactly("A", "B");
        assertThat(engine.output(run, "A")).as("the first completion stands")
                .isEqualTo(EngineHarness.JSON.readTree("{\"by\": \"dead\"}"));
        assertThat(jdbc.sql("select count(*) from rejected_signals where token_id = :token").param("token", token)
                .query(Long.class).single()).as("the duplicate is absorbed, not refused").isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.commands().xpending(
                keys.taskStream("function", keys.shardOf(run)), keys.workerGroup("function")).getCount() == 0);
    }
}
