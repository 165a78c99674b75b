package io.tokenflow.supervisor;

import static io.tokenflow.engine.replay.EventScript.eventsFrom;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/** Idle runs are failed through the real RunTerminator, counters are snapshotted, and the lag is measurable. */
@IntegrationTest
class SupervisorIntegrationTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired JdbcClient jdbc;
    @Autowired CounterSnapshots snapshots;
    @Autowired EventLogLag lag;
    @Autowired MeterRegistry meters;
    @Autowired Clock clock;

    @Test
    void failsARunThatWasIdleLongerThanTheInactivityTimeout() {
        StoredRuns stored = new StoredRuns(jdbc);
        UUID run = UUID.randomUUID();
        long idleSince = clock.millis() - Duration.ofMinutes(6).toMillis();
        startRunInRedis(run, stored.workflow(), idleSince);

        await().atMost(PATIENCE).until(() -> "FAILED".equals(stored.status(run)));

        assertThat(jdbc.sql("select error from runs where id = :run").param("run", run).query(String.class).single())
                .isEqualTo("Expected activity within PT5M, but the run was idle since "
                        + java.time.Instant.ofEpochMilli(idleSince));
        assertThat(stored.nodeStatuses(run)).containsOnly(Map.entry("A#0", "CANCELLED"));
        assertThat(stored.eventLog(run)).last().satisfies(event -> assertThat(event.type().wireName())
                .isEqualTo("run.failed"));
        stored.assertMatchesReplay(run);
    }

    @Test
    void sparesARunActiveSinceItsScoreInTheActiveSetAndBringsTheScoreUpToDate() {
        StoredRuns stored = new StoredRuns(jdbc);
        UUID run = UUID.randomUUID();
        startRunInRedis(run, stored.workflow(), clock.millis() - Duration.ofMinutes(6).toMillis());
        // activity the set's score does not show yet (it lags by up to a second, or came after the detector looked)
        long activeAt = clock.millis();
        redis.commands().hset(keys.run(run).meta(), "last", Long.toString(activeAt));

        await().atMost(PATIENCE).until(() -> Double.valueOf(activeAt).equals(
                redis.commands().zscore(keys.activeRuns(keys.shardOf(run)), run.toString())));

        assertThat(redis.commands().hget(keys.run(run).meta(), "status")).isEqualTo("RUNNING");
        await().atMost(PATIENCE).until(() -> "RUNNING".equals(stored.status(run)));
        assertThat(stored.eventLog(run)).noneSatisfy(event -> assertThat(event.type().wireName())
                .isEqualTo("run.failed"));
        redis.commands().zrem(keys.activeRuns(keys.shardOf(run)), run.toString());
        redis.commands().del(keys.run(run).all().toArray(String[]::new));
    }

    @Test
    void forgetsAnIdleEntryOfARunRedisNoLongerKnows() {
        UUID ghost = UUID.randomUUID();
        redis.commands().zadd(keys.activeRuns(keys.shardOf(ghost)), clock.millis() - Duration.ofHours(1).toMillis(),
                ghost.toString());

        await().atMost(PATIENCE).until(() -> redis.commands().zscore(keys.activeRuns(keys.shardOf(ghost)),
                ghost.toString()) == null);
    }

    @Test
    void snapshotsTheCountersOfActiveRunsThatHaveARow() {
        StoredRuns stored = new StoredRuns(jdbc);
        UUID run = UUID.randomUUID();
        startRunInRedis(run, stored.workflow(), clock.millis());
        UUID unknown = UUID.randomUUID();
        redis.commands().zadd(keys.activeRuns(keys.shardOf(unknown)), clock.millis(), unknown.toString());
        redis.commands().set(keys.run(unknown).counter(), "5");
        redis.commands().hset(keys.run(unknown).meta(), "seq", "9");
        await().atMost(PATIENCE).until(() -> "RUNNING".equals(stored.status(run)));

        assertThat(snapshots.take(Set.of())).as("a supervisor holding no shard snapshots none").isZero();
        snapshots.take(Set.copyOf(List.of(keys.shardOf(run), keys.shardOf(unknown))));

        assertThat(jdbc.sql("select value || '@' || last_seq from run_counter_snapshots where run_id = :run")
                .param("run", run).query(String.class).list()).contains("1@2");
        assertThat(jdbc.sql("select count(*) from run_counter_snapshots where run_id = :run").param("run", unknown)
                .query(Long.class).single()).isZero();
        redis.commands().zrem(keys.activeRuns(keys.shardOf(run)), run.toString());
        redis.commands().zrem(keys.activeRuns(keys.shardOf(unknown)), unknown.toString());
        redis.commands().del(keys.run(unknown).all().toArray(String[]::new));
    }

    @Test
    void reportsTheLagAsAMethodAndAGauge() {
        await().atMost(PATIENCE).until(() -> lag.lag().caughtUp());

        assertThat(lag.lag().oldest()).isZero();
        assertThat(meters.get("tokenflow.eventlog.lag.entries").gauge().value()).isZero();
        assertThat(meters.get("tokenflow.eventlog.lag.seconds").gauge().value()).isZero();
    }

    /** What start-run.lua leaves behind: meta, counter, tokens, the active entry and two events. */
    private void startRunInRedis(UUID run, UUID workflow, long at) {
        RedisKeys.RunKeys runKeys = keys.run(run);
        redis.commands().hset(runKeys.meta(), Map.of("status", "RUNNING", "seq", "2", "workflow", workflow.toString(),
                "version", "1", "revision", "0", "input", "{}", "created", Long.toString(at), "last", Long.toString(at)));
        redis.commands().set(runKeys.counter(), "1");
        redis.commands().hset(runKeys.tokens(), "tA", "A");
        redis.commands().zadd(keys.activeRuns(keys.shardOf(run)), at, run.toString());
        redis.commands().xadd(keys.eventsStream(keys.shardOf(run)), Map.of("run", run.toString(), "events",
                eventsFrom(at - 20).runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).json().toString()));
    }
}
