package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;

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
        UUID workflow = new StoredRuns(jdbc).workflow();
        UUID run = UUID.randomUUID();
        jdbc.sql("insert into runs (id, workflow_id, workflow_version, shard, status, created_at) "
                + "values (:id, :workflow, 1, 0, 'COMPLETED', now() - interval '1 hour')")
                .param("id", run).param("workflow", workflow).update();

        try (Connection referring = dataSource.getConnection()) {
            referring.setAutoCommit(false);
            try (PreparedStatement snapshot = referring.prepareStatement("insert into run_counter_snapshots (run_id, "
                    + "snapshot_at, value, last_seq) values (?, now(), 1, 1)")) {
                snapshot.setObject(1, run);
                snapshot.executeUpdate();
            }
            try {
                Map<UUID, Long> locked = CompletableFuture.supplyAsync(() -> runs.lockLogged(List.of(run)))
                        .get(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(locked).containsExactly(Map.entry(run, 0L));
            } finally {
                referring.rollback();
            }
        }
    }
}
