package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.SigningKey;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;

/**
 * Completion signals as an external worker sends them (raw Redis commands): duplicates are absorbed, bad ones are
 * refused and recorded without touching the run, failures fail the run, and cancelling reconciles the counter.
 */
@IntegrationTest
class CompletionSignalsIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired WorkerKeys workerKeys;
    @Autowired RunTerminator terminator;

    EngineHarness engine;
    ManualWorker worker;

    @BeforeEach
    void setUp() {
        engine = new EngineHarness(creating, starting, jdbc);
        worker = new ManualWorker(redis.commands(), "default", keys.shards(), SigningKey.of(workerKeys));
    }

    @Test
    void absorbsEveryCompletionDeliveredTwice() {
        UUID once = engine.start(engine.workflow("engine/diamond"), null);
        drive(Map.of(once, 1));
        UUID twice = engine.start(engine.workflow("engine/diamond"), null);
        drive(Map.of(twice, 2));
        engine.awaitStatus(once, "COMPLETED");
        engine.awaitStatus(twice, "COMPLETED");
        assertThat(engine.nodeStatuses(twice)).isEqualTo(engine.nodeStatuses(once));
        assertThat(engine.eventTypes(twice)).isEqualTo(engine.eventTypes(once));
        assertThat(engine.eventTypes(twice).stream().filter("node.completed"::equals)).hasSize(4);
        assertThat(engine.output(twice, "D")).isEqualTo(engine.output(once, "D"));
        assertThat(engine.run(twice).get("final_counter")).isEqualTo(0);
    }

    @Test
    void refusesAndRecordsBadSignalsWithoutTouchingTheRun() {
        UUID run = engine.start(engine.workflow("engine/chain"), "{\"n\": 1}");
        StreamMessage<String, String> tokenA = takeOne(run);
        String token = tokenA.getBody().get("token");
        // unique per test run: the database may hold this test's rows from earlier runs
        String neverEmitted = "never-emitted-" + UUID.randomUUID().toString().substring(0, 8);
        signal(Map.of("token", token, "run", UUID.randomUUID().toString(), "node", "A", "status", "completed", "output", "{}"));
        signal(Map.of("token", token, "run", run.toString(), "node", "Z", "status", "completed", "output", "{}"));
        signal(Map.of("token", token, "run", run.toString(), "node", "A", "status", "completed", "output", "{not json"));
        signal(Map.of("token", neverEmitted, "run", run.toString(), "node", "A", "status", "completed", "output", "{}"));
        signal(Map.of("token", token, "run", run.toString(), "node", "B", "status", "completed", "output", "{}"));
        signal(Map.of("token", token, "run", "not-a-uuid", "node", "A", "status", "completed", "output", "{}"));
        signal(Map.of("token", token, "run", run.toString(), "node", "A", "status", "exploded"));
        signal(Map.of("kind", "started", "token", token, "run", UUID.randomUUID().toString(), "node", "A"));
        signal(Map.of("kind", "started", "token", token, "run", run.toString(), "node", "B"));
        signal(Map.of("kind", "paused", "token", token, "run", run.toString(), "node", "A"));
        await().atMost(Duration.ofSeconds(20)).until(() -> rejectedFor(token, neverEmitted) == 10);
        assertThat(jdbc.sql("select reason from rejected_signals where token_id in (:t, :never) order by id")
                .param("t", token).param("never", neverEmitted).query(String.class).list())
                .anySatisfy(reason -> assertThat(reason).contains("unknown"))
                .anySatisfy(reason -> assertThat(reason).contains("no such node"))
                .anySatisfy(reason -> assertThat(reason).contains("malformed"))
                .anySatisfy(reason -> assertThat(reason).contains("in flight"))
                .anySatisfy(reason -> assertThat(reason).contains("UUID"))
                .anySatisfy(reason -> assertThat(reason).contains("'completed' or 'failed'"))
                .anySatisfy(reason -> assertThat(reason).contains("never was"))
                .anySatisfy(reason -> assertThat(reason).contains("kind 'started'"));
        worker.complete(tokenA, "{\"value\": 7}");
        drive(Map.of(run, 1));
        engine.awaitStatus(run, "COMPLETED");
        assertThat(engine.output(run, "A")).isEqualTo(EngineHarness.JSON.readTree("{\"value\": 7}"));
        assertThat(engine.eventTypes(run).stream().filter("node.completed"::equals)).hasSize(3);
        assertThat(engine.eventTypes(run)).doesNotContain("node.started");
    }

    /**
     * A malformed completion written by hand with a NUL character (which PostgreSQL cannot store as text) is recorded
     * with it escaped and acknowledged, instead of failing to be recorded and being delivered again forever; runs go
     * on.
     */
    @Test
    void aMalformedSignalHoldingANulCharacterIsRecordedAndAcknowledgedAndRunsGoOn() {
        String marker = "nul-" + UUID.randomUUID().toString().substring(0, 8);
        String entry = redis.commands().xadd("wf.completions:{0}", SigningKey.of(workerKeys).signed(Map.of(
                "token", marker + "\u0000",
                "run", UUID.randomUUID().toString(), "node", "A", "status", "completed", "output", "{}",
                "note", "a\u0000b")));
        UUID run = engine.start(engine.workflow("engine/chain"), "{\"n\": 1}");
        drive(Map.of(run, 1));
        engine.awaitStatus(run, "COMPLETED");

        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("select count(*) from rejected_signals "
                + "where stream_entry_id = ?").param(entry).query(Long.class).single() == 1);
        Map<String, Object> rejected = jdbc.sql("select token_id, reason, fields::text as fields from rejected_signals "
                + "where stream_entry_id = ?").param(entry).query().singleRow();
        assertThat(rejected.get("token_id")).isEqualTo(marker + "\\u0000");
        assertThat((String) rejected.get("reason")).startsWith("Expected token to match ").endsWith(marker
                + "\\u0000'");
        assertThat((String) rejected.get("fields")).contains("\"note\": \"a\\\\u0000b\"");
        assertThat(redis.commands().xrange("wf.completions:{0}", Range.create(entry, entry))).isEmpty();
    }

    @Test
    void aFailedNodeFailsTheRun() {
        UUID run = engine.start(engine.workflow("engine/chain"), "{\"n\": 1}");
        worker.complete(takeOne(run), "{}");
        worker.fail(takeOne(run), "the printer is on fire");
        engine.awaitStatus(run, "FAILED");
        assertThat(engine.nodeStatuses(run)).containsEntry("A", "COMPLETED").containsEntry("B", "FAILED");
        assertThat(engine.run(run).get("final_counter")).isEqualTo(0);
        assertThat(engine.eventTypes(run)).endsWith("node.failed", "run.failed");
    }

    @Test
    void cancellingDropsInFlightTokensAndReconcilesTheCounter() {
        UUID run = engine.start(engine.workflow("engine/diamond"), null);
        worker.complete(takeOne(run), "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> "2".equals(redis.commands().get(keys.run(run).counter())));
        assertThat(terminator.cancel(run, "operator")).isTrue();
        assertThat(terminator.cancel(run, "operator")).isFalse();
        engine.awaitStatus(run, "CANCELLED");
        assertThat(engine.run(run).get("final_counter")).isEqualTo(0);
        assertThat(engine.nodeStatuses(run)).containsEntry("A", "COMPLETED").containsEntry("B", "CANCELLED")
                .containsEntry("C", "CANCELLED");
        await().atMost(Duration.ofSeconds(10)).until(() -> keys.run(run).all().stream()
                .allMatch(key -> redis.commands().ttl(key) != -1));
    }

    private long rejectedFor(String token, String neverEmitted) {
        return jdbc.sql("select count(*) from rejected_signals where token_id in (:t, :never)")
                .param("t", token).param("never", neverEmitted).query(Long.class).single();
    }

    private void signal(Map<String, String> fields) {
        redis.commands().xadd("wf.completions:{0}", SigningKey.of(workerKeys).signed(fields));
    }

    /** Takes the next token of a run, waiting for it. */
    private StreamMessage<String, String> takeOne(UUID run) {
        List<StreamMessage<String, String>> found = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            for (StreamMessage<String, String> token : worker.take()) {
                if (token.getBody().get("run").equals(run.toString()) && found.isEmpty()) {
                    found.add(token);
                } else {
                    pending.computeIfAbsent(UUID.fromString(token.getBody().get("run")), r -> new java.util.ArrayList<>())
                            .add(token);
                }
            }
            List<StreamMessage<String, String>> parked = pending.get(run);
            if (found.isEmpty() && parked != null && !parked.isEmpty()) {
                found.add(parked.remove(0));
            }
            return !found.isEmpty();
        });
        return found.get(0);
    }

    private final Map<UUID, List<StreamMessage<String, String>>> pending = new HashMap<>();

    /** Completes every token of the given runs until they end, sending each completion {@code times} times. */
    private void drive(Map<UUID, Integer> runs) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<StreamMessage<String, String>> tokens = new java.util.ArrayList<>(worker.take());
            runs.keySet().forEach(run -> tokens.addAll(pending.getOrDefault(run, List.of())));
            runs.keySet().forEach(pending::remove);
            for (StreamMessage<String, String> token : tokens) {
                UUID run = UUID.fromString(token.getBody().get("run"));
                for (int i = 0; i < runs.getOrDefault(run, 1); i++) {
                    worker.complete(token, "{\"node\": \"" + token.getBody().get("node") + "\"}");
                }
            }
            return runs.keySet().stream().allMatch(run -> !"RUNNING".equals(
                    redis.commands().hget(keys.run(run).meta(), "status")));
        });
    }
}
