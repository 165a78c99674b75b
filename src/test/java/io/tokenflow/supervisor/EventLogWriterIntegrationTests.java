package io.tokenflow.supervisor;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import io.lettuce.core.Range;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.tokenflow.IntegrationTest;
import io.tokenflow.engine.replay.EventScript;
import io.tokenflow.engine.replay.RunEvents;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The supervisor drains raw events-stream entries (docs/run-events.md) into PostgreSQL. */
@IntegrationTest
class EventLogWriterIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Autowired RedisConnections redis;
    @Autowired LuaScripts scripts;
    @Autowired RedisKeys keys;
    @Autowired JdbcClient jdbc;
    @Autowired EventLogWriter writer;
    @Autowired PlatformTransactionManager transactions;
    StoredRuns stored;
    UUID workflow;

    @BeforeEach
    void createWorkflow() {
        stored = new StoredRuns(jdbc);
        workflow = stored.workflow();
    }

    EventScript chain() {
        return events().runStarted(workflow, "{\"city\":\"Oslo\"}", "A").emitted(null, "A", "tA", null).then()
                .started("A", "tA", "w-a").then()
                .completed("A", "tA", "{\"a\":1}").emitted("A", "B", "tB", "tA").then()
                .completed("B", "tB", "{\"b\":2}").emitted("B", "C", "tC", "tB").then()
                .completed("C", "tC", "{\"c\":3}").runCompleted();
    }

    @Test
    void writesACompletedRunsLogStatusOutputsAndNodeExecutions() {
        UUID run = UUID.randomUUID();
        RedisKeys.RunKeys runKeys = liveRunState(run);

        xadd(run, chain().entries());

        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(stored.status(run)));
        assertThat(stored.eventLog(run)).extracting(event -> event.type().wireName()).containsExactly("run.started",
                "token.emitted", "node.started", "node.completed", "token.emitted", "node.completed", "token.emitted",
                "node.completed", "run.completed");
        assertThat(stored.nodeStatuses(run)).containsOnly(Map.entry("A#0", "COMPLETED"), Map.entry("B#0", "COMPLETED"),
                Map.entry("C#0", "COMPLETED"));
        assertThat(stored.outputs(run).toString()).isEqualTo("{\"C\":{\"c\":3}}");
        RunState replayed = stored.assertMatchesReplay(run);
        assertThat(replayed.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(replayed.inputs().get("city").asString()).isEqualTo("Oslo");
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(redis.commands().zscore(keys.activeRuns(0), run.toString())).isNull();
            assertThat(redis.commands().pttl(runKeys.meta())).isBetween(1L, Duration.ofMinutes(1).toMillis());
            // every key the run has is set to expire (-2: a key this run never had, e.g. loops or approvals)
            assertThat(runKeys.all()).allSatisfy(key -> assertThat(redis.commands().pttl(key))
                    .as("%s is set to expire", key).satisfiesAnyOf(ttl -> assertThat(ttl).isEqualTo(-2L),
                            ttl -> assertThat(ttl).isBetween(1L, Duration.ofMinutes(1).toMillis())));
        });
    }

    @Test
    void theSameEntriesTwiceWriteEverythingOnce() {
        UUID run = UUID.randomUUID();
        List<ArrayNode> entries = chain().entries();

        xadd(run, entries);
        xadd(run, entries);
        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(stored.status(run)));
        List<String> again = xadd(run, entries);
        await().atMost(PATIENCE).until(() -> again.stream().allMatch(id -> redis.commands()
                .xrange(keys.eventsStream(0), Range.create(id, id)).isEmpty()));

        assertThat(stored.eventCount(run)).isEqualTo(9);
        assertThat(stored.nodeStatuses(run)).hasSize(3);
        stored.assertMatchesReplay(run);
    }

    @Test
    void eventsThatArriveBeforeTheirRunStartedWaitForIt() {
        UUID run = UUID.randomUUID();
        List<ArrayNode> entries = chain().entries();

        xadd(run, entries.subList(1, entries.size()));
        await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> stored.eventCount(run) == 0);
        xadd(run, entries.subList(0, 1));

        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(stored.status(run)));
        assertThat(stored.eventCount(run)).isEqualTo(9);
        stored.assertMatchesReplay(run);
    }

    @Test
    void anEndingTheRunStatusTableForbidsLeavesTheStatusAsItIs() {
        UUID run = UUID.randomUUID();
        List<ArrayNode> entries = chain().entries();
        xadd(run, entries.subList(0, 1));
        await().atMost(PATIENCE).until(() -> "RUNNING".equals(stored.status(run)));
        jdbc.sql("update runs set status = 'CANCELLED', ended_at = now() where id = :run").param("run", run).update();

        xadd(run, entries.subList(1, entries.size()));

        await().atMost(PATIENCE).until(() -> stored.eventCount(run) == 9);
        assertThat(stored.status(run)).isEqualTo("CANCELLED");
    }

    @Test
    void aFailedNodeFailsTheRunAndCancelsWhatWasStillGoing() {
        UUID run = UUID.randomUUID();
        xadd(run, events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .started("C", "tC", "w-c").then()
                .failed("B", "tB", "boom").runFailed("B", "Node B failed", 1).entries());

        await().atMost(PATIENCE).until(() -> "FAILED".equals(stored.status(run)));
        assertThat(stored.nodeStatuses(run)).containsOnly(Map.entry("A#0", "COMPLETED"), Map.entry("B#0", "FAILED"),
                Map.entry("C#0", "CANCELLED"));
        assertThat(jdbc.sql("select error || ' / ' || final_counter from runs where id = :run").param("run", run)
                .query(String.class).single()).isEqualTo("Node B failed / 0");
        stored.assertMatchesReplay(run);
    }

    @Test
    void aFanOutJoinsBackIn() {
        UUID run = UUID.randomUUID();
        xadd(run, events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .completed("B", "tB", "{\"b\":1}").parked("B", "J", "pB", "tB").arrived("J", "pB", "B", 1, 2).then()
                .completed("C", "tC", "{\"c\":2}").parked("C", "J", "pC", "tC").arrived("J", "pC", "C", 2, 2)
                .joinCompleted("J", "jJ", "pB", "pC").emitted(null, "J", "jJ", null).then()
                .completed("J", "jJ", "{\"merged\":true}").runCompleted().entries());

        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(stored.status(run)));
        assertThat(stored.nodeStatuses(run)).containsOnly(Map.entry("A#0", "COMPLETED"), Map.entry("B#0", "COMPLETED"),
                Map.entry("C#0", "COMPLETED"), Map.entry("J#0", "COMPLETED"));
        assertThat(stored.outputs(run).toString()).isEqualTo("{\"J\":{\"merged\":true}}");
        stored.assertMatchesReplay(run);
    }

    @Test
    void keepsTheOutputOfEveryTerminalNodeWhetherItArrivesBeforeTheEndingOrWithIt() {
        UUID run = UUID.randomUUID();
        List<ArrayNode> entries = events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .completed("B", "tB", "{\"b\":1}").then()
                .completed("C", "tC", "{\"c\":2}").runCompleted().entries();

        writer.write(0, List.of(entry("2-1", run, entries.get(0)), entry("2-2", run, entries.get(1)),
                entry("2-3", run, entries.get(2))));
        assertThat(stored.outputs(run).toString()).isEqualTo("{\"B\":{\"b\":1}}");
        writer.write(0, List.of(entry("2-4", run, entries.get(3))));

        assertThat(stored.status(run)).isEqualTo("COMPLETED");
        assertThat(stored.outputs(run).toString()).isEqualTo("{\"B\":{\"b\":1},\"C\":{\"c\":2}}");
        stored.assertMatchesReplay(run);
    }

    @Test
    void movesTheLastEventTimeInStepsOfASecondWhileTheRunRunsAndExactlyWhenItEnds() {
        UUID run = UUID.randomUUID();
        List<ArrayNode> entries = chain().entries();
        // in the past: runs dated ahead would be listed above the runs other tests (sharing the database) expect first
        long start = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
        long[] at = {start, start + 400, start + 900, start + 1_300, start + 1_450};
        for (int i = 0; i < entries.size(); i++) {
            long millis = at[i];
            entries.get(i).forEach(event -> ((ObjectNode) event).put("at", millis));
        }

        List<Long> seen = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            writer.write(0, List.of(entry("3-" + (i + 1), run, entries.get(i))));
            seen.add(jdbc.sql("select (extract(epoch from last_event_at) * 1000)::bigint from runs where id = :run")
                    .param("run", run).query(Long.class).single() - start);
        }

        assertThat(seen).containsExactly(0L, 0L, 0L, 1_300L, 1_450L);
        assertThat(stored.status(run)).isEqualTo("COMPLETED");
    }

    @Test
    void aBatchThatPostgresRefusesIsRetriedUntilItSucceedsAndLosesNothing() {
        UUID run = UUID.randomUUID();
        String name = "refuse_" + run.toString().replace("-", "");
        jdbc.sql("create function " + name + "() returns trigger language plpgsql as $$ begin "
                + "raise exception 'PostgreSQL refuses run %', new.run_id; end $$").update();
        jdbc.sql("create trigger " + name + " before insert on event_log for each row when (new.run_id = '" + run
                + "') execute function " + name + "()").update();
        try {
            List<String> ids = xadd(run, chain().entries());
            await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> stored.status(run) == null
                    && redis.commands().xrange(keys.eventsStream(0), Range.create(ids.get(0), ids.get(0)))
                    .size() == 1);
        } finally {
            jdbc.sql("drop trigger " + name + " on event_log").update();
            jdbc.sql("drop function " + name + "()").update();
        }

        await().atMost(PATIENCE).until(() -> "COMPLETED".equals(stored.status(run)));
        assertThat(stored.eventCount(run)).isEqualTo(9);
        stored.assertMatchesReplay(run);
    }

    @Test
    void writesTheEventsOfTwoRunsInOneBatch() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        List<ArrayNode> ofFirst = chain().entries();
        List<ArrayNode> ofSecond = events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .runCancelled("alice", 1).entries();
        List<EventsEntry> batch = List.of(entry("1-1", first, ofFirst.get(0)), entry("1-2", second, ofSecond.get(0)),
                entry("1-3", first, ofFirst.get(1)), entry("1-4", second, ofSecond.get(1)),
                entry("1-5", first, ofFirst.get(2)), entry("1-6", first, ofFirst.get(3)),
                entry("1-7", first, ofFirst.get(4)));

        EventLogWriter.Outcome outcome = writer.write(0, batch);

        assertThat(outcome.done()).containsExactlyInAnyOrder("1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7");
        assertThat(outcome.waiting()).isEmpty();
        assertThat(outcome.ended()).containsExactlyInAnyOrder(first, second);
        assertThat(stored.status(first)).isEqualTo("COMPLETED");
        assertThat(stored.status(second)).isEqualTo("CANCELLED");
        assertThat(stored.nodeStatuses(second)).containsOnly(Map.entry("A#0", "CANCELLED"));
        stored.assertMatchesReplay(first);
        stored.assertMatchesReplay(second);
        assertThat(outcome.endings()).containsOnlyKeys(first, second);
        EventLogWriter.Outcome again = writer.write(0, batch);
        assertThat(again).as("written again: nothing changes").usingRecursiveComparison().ignoringFields("endings")
                .isEqualTo(outcome);
        assertThat(again.endings()).as("written again: no run ends twice (nor is compensated twice)").isEmpty();
        assertThat(stored.eventCount(first) + stored.eventCount(second)).isEqualTo(9 + 3);
    }

    /**
     * A run whose whole life is in one batch gets its row written once, ended; the row is the one a run written batch
     * by batch ends with.
     */
    @Test
    void aRunStartedAndEndedInOneBatchGetsTheRowOfARunWrittenBatchByBatch() {
        List<List<ArrayNode>> lives = List.of(chain().entries(), events().runStarted(workflow, "{\"n\":1}", "A")
                .emitted(null, "A", "tA", null).then().runCancelled("alice", 1).entries());
        for (List<ArrayNode> life : lives) {
            UUID whole = UUID.randomUUID();
            UUID stepwise = UUID.randomUUID();
            List<EventsEntry> batch = writeWholeAndStepwise(life, whole, stepwise, 5);

            assertThat(runRow(whole)).isEqualTo(runRow(stepwise)).containsEntry("final_counter", 0);
            stored.assertMatchesReplay(whole);
            assertThat(writer.write(0, batch).done()).as("written again").hasSize(batch.size());
            assertThat(runRow(whole)).isEqualTo(runRow(stepwise));
        }
    }

    /**
     * An execution first seen in this batch is inserted, one seen in an earlier batch is updated: written entry by
     * entry (every later event an update), a run's executions end exactly as written in one batch (every execution an
     * insert), down to the start times earlier events set and the error's stored text.
     */
    @Test
    void nodeExecutionsWrittenBatchByBatchEqualThoseWrittenInOneBatch() {
        List<ArrayNode> life = events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .started("A", "tA", "w-a").then()
                .completed("A", "tA", "{\"a\": [1, {\"b\": \"é\"}]}").emitted("A", "B", "tB", "tA")
                .emitted("A", "C", "tC", "tA").then()
                .started("B", "tB", "w-b").then()
                .started("C", "tC", "w-c").then()
                .failed("B", "tB", "boom \"quoted\"").runFailed("B", "Node B failed", 1).entries();
        UUID whole = UUID.randomUUID();
        UUID stepwise = UUID.randomUUID();
        writeWholeAndStepwise(life, whole, stepwise, 7);

        assertThat(nodeRows(stepwise)).isEqualTo(nodeRows(whole)).hasSize(3);
        assertThat(nodeRows(whole).get(0)).containsEntry("node_id", "A").containsEntry("status", "COMPLETED")
                .containsEntry("output", "{\"a\": [1, {\"b\": \"é\"}]}");
        assertThat(nodeRows(whole).get(1)).containsEntry("node_id", "B").containsEntry("status", "FAILED")
                .satisfies(row -> assertThat(row.get("error")).asString()
                        .contains("boom \\\"quoted\\\""));
        assertThat(nodeRows(whole).get(2)).containsEntry("node_id", "C").containsEntry("status", "CANCELLED");
        assertThat(nodeRows(whole)).allSatisfy(row -> assertThat(row.get("started_at")).isNotNull());
    }

    /**
     * Writes a run's life twice: as run {@code stepwise} one entry per batch, then as run {@code whole} in one batch
     * (entry ids from {@code firstMs} and the next millisecond); returns that batch.
     */
    private List<EventsEntry> writeWholeAndStepwise(List<ArrayNode> life, UUID whole, UUID stepwise, int firstMs) {
        List<EventsEntry> batch = new ArrayList<>();
        for (int i = 0; i < life.size(); i++) {
            batch.add(entry(firstMs + "-" + (i + 1), whole, life.get(i)));
            writer.write(0, List.of(entry((firstMs + 1) + "-" + (i + 1), stepwise, life.get(i))));
        }
        writer.write(0, batch);
        return batch;
    }

    /** A run's node executions, without the time they were written. */
    private List<Map<String, Object>> nodeRows(UUID run) {
        return jdbc.sql("select node_id, iteration, status, token_id, attempt, worker, input::text, output::text, "
                + "output_ref, error, ready_at, started_at, ended_at from node_executions where run_id = :run "
                + "order by node_id, iteration").param("run", run).query().listOfRows();
    }

    private Map<String, Object> runRow(UUID run) {
        return jdbc.sql("select workflow_id, workflow_version, tag, ir_revision, shard, status, idempotency_key, "
                + "inputs::text, outputs::text, error, submitted_by, final_counter, created_at, started_at, ended_at, "
                + "last_event_at from runs where id = :run").param("run", run).query().singleRow();
    }

    /**
     * The writer's statements are prepared once per connection; PostgreSQL would soon plan them once for all batches
     * (generic plans, made without the arrays' lengths and kept while the tables grow). Each batch gets a plan of its
     * own. All batches here go through one connection: the test's transaction, rolled back at the end. (The event log
     * itself is written by {@code COPY}, which has no plan.)
     */
    @Test
    void plansItsStatementsForEachBatchRatherThanOnceForAll() {
        new TransactionTemplate(transactions).executeWithoutResult(transaction -> {
            // entries seconds apart, so that every batch moves the run's last event time
            writeChainsEntryByEntry(10, Duration.ofSeconds(2));
            List<Map<String, Object>> prepared = jdbc.sql("select statement, generic_plans, custom_plans from "
                    + "pg_prepared_statements where statement ~* '^(insert into node_executions|update runs|select (r.id|k.run_id))'")
                    .query().listOfRows();
            assertThat(prepared).as("the writer's statements, prepared by the driver after a few uses").hasSize(5)
                    .allSatisfy(statement -> {
                        assertThat(((Number) statement.get("generic_plans")).longValue()).as("%s", statement).isZero();
                        assertThat(((Number) statement.get("custom_plans")).longValue()).isPositive();
                    });
            transaction.setRollbackOnly();
        });
    }

    /**
     * The runs' last event times, read under their lock, show which runs a batch's activity would move; a batch moving
     * none sends no update of them. Counted by the custom plans PostgreSQL made for the statement (it plans each
     * execution afresh): the same before and after fifty such batches.
     */
    @Test
    void sendsNoActivityUpdateForRunsWhoseLastEventTimeWouldNotMove() {
        new TransactionTemplate(transactions).executeWithoutResult(transaction -> {
            long before = activityUpdatesPlanned();
            writeChainsEntryByEntry(30, Duration.ofMillis(100));
            assertThat(activityUpdatesPlanned()).isEqualTo(before);
            transaction.setRollbackOnly();
        });
    }

    /**
     * Writes ten runs of the chain, each entry in a batch of its own, the entries {@code apart} in time (an hour ago);
     * entry ids start at {@code firstId}.
     */
    private void writeChainsEntryByEntry(int firstId, Duration apart) {
        long start = Instant.now().minus(Duration.ofHours(1)).toEpochMilli();
        for (int i = 0; i < 10; i++) {
            UUID run = UUID.randomUUID();
            List<ArrayNode> entries = chain().entries();
            for (int j = 0; j < entries.size(); j++) {
                long at = start + apart.toMillis() * j;
                entries.get(j).forEach(event -> ((ObjectNode) event).put("at", at));
                writer.write(0, List.of(entry((firstId + i) + "-" + (j + 1), run, entries.get(j))));
            }
        }
    }

    private long activityUpdatesPlanned() {
        return jdbc.sql("select coalesce(sum(custom_plans), 0) from pg_prepared_statements where statement like "
                + "'update runs r set last_event_at%'").query(Long.class).single();
    }

    @Test
    void letsTheRedisStateOfFinishedRunsGoAtOnceWithoutRetention() {
        UUID run = UUID.randomUUID();
        RedisKeys.RunKeys runKeys = liveRunState(run);

        new ShardEvents(redis.commands(), keys, 0, "test", settings(Duration.ZERO), scripts.forgetRuns())
                .forget(List.of(run));

        assertThat(redis.commands().exists(runKeys.all().toArray(String[]::new))).isZero();
        assertThat(redis.commands().zscore(keys.activeRuns(0), run.toString())).isNull();
    }

    /**
     * One step lets a batch go however many runs it ended, also more keys than Lua can hand to one Redis call (its C
     * stack holds 8,000 values).
     */
    @Test
    void letsABatchOfManyFinishedRunsGoInOneStep() {
        List<UUID> kept = new ArrayList<>();
        List<UUID> deleted = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            (i < 100 ? kept : deleted).add(UUID.randomUUID());
        }
        kept.forEach(this::liveRunState);
        deleted.forEach(this::liveRunState);

        new ShardEvents(redis.commands(), keys, 0, "test", settings(Duration.ofMinutes(1)), scripts.forgetRuns())
                .forget(kept);
        new ShardEvents(redis.commands(), keys, 0, "test", settings(Duration.ZERO), scripts.forgetRuns())
                .forget(deleted);

        String[] deletedKeys = deleted.stream().flatMap(run -> keys.run(run, 0).all().stream())
                .toArray(String[]::new);
        assertThat(deletedKeys.length).isGreaterThan(8000);
        assertThat(redis.commands().exists(deletedKeys)).isZero();
        assertThat(kept).allSatisfy(run -> assertThat(redis.commands().pttl(keys.run(run, 0).meta()))
                .isBetween(1L, Duration.ofMinutes(1).toMillis()));
        assertThat(redis.commands().zmscore(keys.activeRuns(0), Stream.concat(kept.stream(),
                deleted.stream()).map(UUID::toString).toArray(String[]::new))).containsOnlyNulls();
    }

    private static SupervisorSettings settings(Duration finishedRunRetention) {
        return new SupervisorSettings(true, 10, Duration.ofMillis(10), Duration.ZERO, Duration.ofMinutes(5),
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30), finishedRunRetention,
                Duration.ofSeconds(10), Duration.ofSeconds(10));
    }

    private EventsEntry entry(String id, UUID run, ArrayNode events) {
        return new EventsEntry(id, run, RunEvents.parse(events));
    }

    private RedisKeys.RunKeys liveRunState(UUID run) {
        RedisKeys.RunKeys runKeys = keys.run(run, 0);
        redis.commands().hset(runKeys.meta(), Map.of("status", "COMPLETED", "seq", "9"));
        redis.commands().set(runKeys.counter(), "0");
        redis.commands().hset(runKeys.tokens(), "tX", "X");
        redis.commands().sadd(runKeys.consumed(), "tA", "tB", "tC");
        redis.commands().hset(runKeys.ctx(), "C", "{\"c\":3}");
        redis.commands().hset(runKeys.joins(), "J#0", "{}");
        redis.commands().zadd(keys.activeRuns(0), System.currentTimeMillis(), run.toString());
        return runKeys;
    }

    private List<String> xadd(UUID run, List<ArrayNode> entries) {
        return entries.stream().map(events -> redis.commands().xadd(keys.eventsStream(0),
                Map.of("run", run.toString(), "events", events.toString()))).toList();
    }
}
