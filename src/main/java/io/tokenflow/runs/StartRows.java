package io.tokenflow.runs;

import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.web.Outages;
import tools.jackson.databind.JsonNode;

/**
 * What a start reads from and writes to PostgreSQL before it is answered: the run an idempotency key made, and the new
 * run's {@code run_starts} row. The row is written after Redis took the run and before the {@code 201}, so every
 * answered start is findable even when Redis loses the run before its {@code run.started} reaches the event log: the
 * supervisor then starts it again from this row (docs/recovery.md) and deletes the rows of runs the log has written.
 *
 * <p>The rows of concurrent starts are written together, in one transaction by one thread (group commit): a start
 * waits for one commit, but PostgreSQL pays one commit (and one WAL flush) per batch instead of per start. This is
 * written by hand because it is a queue and a loop, which no JDBC library offers as such.
 *
 * <p>Starts go on while PostgreSQL is unreachable or slow: a start waits at most {@link #WAIT} for its row (the row
 * then comes with the event log). A circuit breaker (Resilience4j) keeps starts from waiting at all during an outage:
 * once half of its last calls (3 to 10) failed to reach PostgreSQL, starts skip it for {@link #OPEN_FOR}; then one
 * call tries again.
 */
@Component
class StartRows implements DisposableBean {

    /** How long starts skip PostgreSQL after it failed to answer them. */
    static final Duration OPEN_FOR = Duration.ofSeconds(5);
    /** How long a start waits for its row to be committed. */
    static final Duration WAIT = Duration.ofSeconds(2);
    private static final int BATCH = 1_000;
    private static final String INSERT = "insert into run_starts (id, workflow_id, workflow_version, tag, shard, "
            + "idempotency_key, inputs, submitted_by, started_at) values (?, ?, ?, ?, ?, ?, cast(? as json), ?, ?) "
            + "on conflict do nothing";
    private static final Log log = LogFactory.getLog(StartRows.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final CircuitBreaker postgres = CircuitBreaker.of("postgresql-at-start", CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED).slidingWindowSize(10)
            .minimumNumberOfCalls(3).failureRateThreshold(50).waitDurationInOpenState(OPEN_FOR)
            .permittedNumberOfCallsInHalfOpenState(1)
            .recordException(failure -> Outages.of(failure).isPresent()).build());
    private final BlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean running = true;

    private record Pending(Object[] row, CompletableFuture<Boolean> written) {
    }

    StartRows(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
        this.writer = new Thread(this::writeLoop, "start-rows");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    /** The run PostgreSQL holds for an idempotency key; empty also when PostgreSQL cannot say. */
    Optional<UUID> runOfKey(String key) {
        try {
            return postgres.executeSupplier(() -> jdbc.query("(select id from runs where idempotency_key = ?) union all "
                    + "(select id from run_starts where idempotency_key = ?) limit 1",
                    (rs, i) -> rs.getObject(1, UUID.class), key, key)).stream().findFirst();
        } catch (CallNotPermittedException open) {
            return Optional.empty();
        } catch (DataAccessException e) {
            log.warn("Could not look up idempotency key '" + key + "' in PostgreSQL; the start goes on as Redis says: "
                    + e.getMostSpecificCause().getMessage());
            return Optional.empty();
        }
    }

    /**
     * Writes the start of a run Redis has just started and waits for its commit; false when PostgreSQL could not take
     * it in time (the event log writes the run's row later, and a failure that is no outage shows there as well).
     */
    boolean record(UUID run, int shard, PinnedWorkflow pinned, JsonNode inputs, String submittedBy,
                   String idempotencyKey, Instant at) {
        if (postgres.getState() == CircuitBreaker.State.OPEN || !running) {
            return false;
        }
        Pending start = new Pending(new Object[] {run, pinned.workflowId(), pinned.version(), pinned.tag(), shard,
                idempotencyKey, inputs.toString(), submittedBy, Timestamp.from(at)}, new CompletableFuture<>());
        pending.add(start);
        try {
            return start.written().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("The start of run " + run + " was not in PostgreSQL within " + WAIT.toMillis() + " ms; answered "
                    + "as Redis says");
            return false;
        } catch (ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void writeLoop() {
        while (running) {
            List<Pending> batch = new ArrayList<>();
            try {
                Pending first = pending.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                pending.drainTo(batch, BATCH - 1);
                boolean written = write(batch);
                batch.forEach(start -> start.written().complete(written));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            } catch (RuntimeException | Error e) {
                log.error("Writing " + batch.size() + " run starts failed", e);
                batch.forEach(start -> start.written().complete(false));
            }
        }
        List<Pending> left = new ArrayList<>();
        pending.drainTo(left);
        left.forEach(start -> start.written().complete(false));
    }

    private boolean write(List<Pending> batch) {
        List<Object[]> rows = batch.stream().map(Pending::row).toList();
        Supplier<int[][]> insert = () -> transactions.execute(status -> jdbc.batchUpdate(INSERT, rows, rows.size(),
                (statement, row) -> {
                    for (int i = 0; i < row.length; i++) {
                        if (row[i] == null) {
                            statement.setNull(i + 1, Types.VARCHAR); // tag, idempotency key, submitter: text
                        } else {
                            statement.setObject(i + 1, row[i]);
                        }
                    }
                }));
        try {
            postgres.executeSupplier(insert);
            return true;
        } catch (CallNotPermittedException open) {
            return false;
        } catch (DataAccessException e) {
            log.warn("Could not write " + batch.size() + " run starts in PostgreSQL; their runs' rows come with the "
                    + "event log: " + e.getMostSpecificCause().getMessage());
            return false;
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        running = false;
        writer.interrupt();
        writer.join(WAIT.toMillis());
    }
}
