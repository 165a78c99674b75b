package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.engine.replay.EventHeader;
import io.tokenflow.engine.replay.RunStarted;
import tools.jackson.databind.node.JsonNodeFactory;

@IntegrationTest
class RunRowsIntegrationTests {

    @Autowired RunRows runs;
    @Autowired JdbcClient jdbc;
    @Autowired DataSource dataSource;

    /**
     * A batch of counter snapshots holds key-share locks on the runs it refers to until it ends; the supervisor's run
     * lock must not wait for them (with {@code for update} it did, and the two deadlocked when each held a run the
     * other wanted).
     */
    @Test
    void locksARunWhileAnotherTransactionHoldsAForeignKeyReferenceToIt() throws Exception {
        UUID run = run("COMPLETED");

        try (Connection referring = dataSource.getConnection()) {
            referring.setAutoCommit(false);
            try (PreparedStatement snapshot = referring.prepareStatement("insert into run_counter_snapshots (run_id, "
                    + "snapshot_at, value, last_seq) values (?, now(), 1, 1)")) {
                snapshot.setObject(1, run);
                snapshot.executeUpdate();
            }
            try {
                Map<UUID, Long> locked = CompletableFuture.supplyAsync(() -> runs.lockLogged(List.of(run)).lastSeq())
                        .get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(locked).containsExactly(Map.entry(run, 0L));
            } finally {
                referring.rollback();
            }
        }
    }

    /**
     * Two supervisors may hold entries of one run (a redelivered entry, a claimed one). The one that waits for the
     * other's lock must then see the events the other logged, or it would write them a second time, and the run's last
     * event time as the other left it, or it would skip or repeat the other's activity update.
     */
    @Test
    void readsTheLogAsTheSupervisorItWaitedForLeftIt() throws Exception {
        UUID run = run("RUNNING");
        Instant lastEvent = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS);

        try (Connection other = dataSource.getConnection()) {
            other.setAutoCommit(false);
            try (PreparedStatement lock = other.prepareStatement("select id from runs where id = ? for no key update");
                 PreparedStatement log = other.prepareStatement("insert into event_log (run_id, seq, event_type, data, "
                         + "occurred_at) select ?, s, 'token.emitted', '{}', now() from generate_series(1, 3) s");
                 PreparedStatement activity = other.prepareStatement("update runs set last_event_at = ? where id = ?")) {
                lock.setObject(1, run);
                lock.executeQuery().close();
                log.setObject(1, run);
                log.executeUpdate();
                activity.setObject(1, OffsetDateTime.ofInstant(lastEvent, ZoneOffset.UTC));
                activity.setObject(2, run);
                activity.executeUpdate();
            }
            CompletableFuture<RunRows.Locked> waiting = CompletableFuture.supplyAsync(() ->
                    runs.lockLogged(List.of(run)));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from pg_stat_activity "
                    + "where wait_event_type = 'Lock' and query like '%for no key update%'").query(Long.class).single() > 0);
            other.commit();

            RunRows.Locked locked = waiting.get(10, TimeUnit.SECONDS);
            assertThat(locked.lastSeq()).containsExactly(Map.entry(run, 3L));
            assertThat(locked.lastActivity()).containsExactly(Map.entry(run, lastEvent));
        }
    }

    /**
     * A second run with a key another run holds (made while PostgreSQL could not be asked, or after Redis lost the
     * binding) still gets its row, without the key: a unique violation would stop the event log of every run on the
     * shard. Checked against a row of an earlier batch and within one batch.
     */
    @Test
    void writesTheRowOfASecondRunWithATakenIdempotencyKeyWithoutTheKey() {
        UUID workflow = new StoredRuns(jdbc).workflow();
        String key = "order-" + UUID.randomUUID();
        UUID first = UUID.randomUUID();
        runs.insertStarted(0, Map.of(first, started(workflow, key)));
        UUID second = UUID.randomUUID();
        runs.insertStarted(0, Map.of(second, started(workflow, key)));
        Map<UUID, RunStarted> sameBatch = new LinkedHashMap<>();
        UUID third = UUID.randomUUID();
        UUID fourth = UUID.randomUUID();
        String other = key + "-b";
        sameBatch.put(third, started(workflow, other));
        sameBatch.put(fourth, started(workflow, other));
        runs.insertStarted(0, sameBatch);

        assertThat(keyOf(first)).isEqualTo(key);
        assertThat(keyOf(second)).isNull();
        assertThat(keyOf(third)).isEqualTo(other);
        assertThat(keyOf(fourth)).isNull();
        assertThat(jdbc.sql("select count(*) from runs where id in (:ids) and status = 'RUNNING'")
                .param("ids", List.of(first, second, third, fourth)).query(Long.class).single()).isEqualTo(4);
    }

    private String keyOf(UUID run) {
        return jdbc.sql("select idempotency_key from runs where id = ?").param(run).query((rs, i) -> rs.getString(1))
                .list().get(0);
    }

    private static RunStarted started(UUID workflow, String key) {
        return new RunStarted(new EventHeader(1, Instant.now(), null, null, JsonNodeFactory.instance.objectNode()),
                workflow, 1, 0, null, JsonNodeFactory.instance.objectNode(), "test", key, List.of("a"));
    }

    private UUID run(String status) {
        UUID run = UUID.randomUUID();
        jdbc.sql("insert into runs (id, workflow_id, workflow_version, shard, status, created_at) "
                + "values (:id, :workflow, 1, 0, :status, now())")
                .param("id", run).param("workflow", new StoredRuns(jdbc).workflow()).param("status", status).update();
        return run;
    }
}
