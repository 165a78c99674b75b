package io.tokenflow.runs;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.web.Outages;
import tools.jackson.databind.JsonNode;

/**
 * What a start reads from and writes to PostgreSQL before it is answered: the run an idempotency key made, and the new
 * run's {@code runs} row. The row is written after Redis took the run and before the {@code 201}, so every answered
 * start is findable even when Redis loses the run before its {@code run.started} reaches the event log: the
 * supervisor then starts it again from this row (docs/recovery.md). The event log's own write of the row ({@code
 * supervisor.RunRows}) finds it there and leaves it as it is.
 *
 * <p>Starts go on while PostgreSQL is unreachable (the row then comes with the event log, as before this write
 * existed). A circuit breaker (Resilience4j) keeps them from each waiting for a connection during an outage: after
 * failures it skips PostgreSQL for {@link #OPEN_FOR}, then lets one start try again. Resilience4j rather than a
 * hand-written "last failed at" because its half-open state lets exactly one start probe PostgreSQL.
 */
@Component
class StartRows {

    /** How long starts skip PostgreSQL after it failed to answer them. */
    static final Duration OPEN_FOR = Duration.ofSeconds(5);
    private static final Log log = LogFactory.getLog(StartRows.class);

    private final JdbcClient jdbc;
    private final CircuitBreaker postgres = CircuitBreaker.of("postgresql-at-start", CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED).slidingWindowSize(10)
            .minimumNumberOfCalls(3).failureRateThreshold(50).waitDurationInOpenState(OPEN_FOR)
            .permittedNumberOfCallsInHalfOpenState(1)
            .recordException(failure -> Outages.of(failure).isPresent()).build());

    StartRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The run PostgreSQL holds for an idempotency key; empty also when PostgreSQL cannot say. */
    Optional<UUID> runOfKey(String key) {
        return call("look up idempotency key '" + key + "'", () -> jdbc.sql("select id from runs "
                + "where idempotency_key = ?").param(key).query(UUID.class).optional()).flatMap(found -> found);
    }

    /**
     * Writes the row of a run Redis has just started; false when PostgreSQL could not take it (the event log writes
     * it later, and a failure that is no outage shows there as well). A row there already (the event log was quicker) is kept; so is another run's hold on the key.
     */
    boolean record(UUID run, int shard, PinnedWorkflow pinned, JsonNode inputs, String submittedBy,
                   String idempotencyKey, Instant at) {
        Timestamp time = Timestamp.from(at);
        return call("write the row of run " + run, () -> jdbc.sql("insert into runs (id, workflow_id, "
                        + "workflow_version, tag, ir_revision, shard, status, idempotency_key, inputs, submitted_by, "
                        + "created_at, started_at, last_event_at) values (?, ?, ?, ?, 0, ?, 'RUNNING', ?, "
                        + "cast(? as jsonb), ?, ?, ?, ?) on conflict do nothing")
                .params(run, pinned.workflowId(), pinned.version(), pinned.tag(), shard, idempotencyKey,
                        inputs.toString(), submittedBy, time, time, time)
                .update()).isPresent();
    }

    private <T> Optional<T> call(String what, Supplier<T> work) {
        try {
            return Optional.of(postgres.executeSupplier(work));
        } catch (CallNotPermittedException open) {
            return Optional.empty();
        } catch (DataAccessException e) {
            log.warn("Could not " + what + " in PostgreSQL; the start goes on as Redis says: "
                    + e.getMostSpecificCause().getMessage());
            return Optional.empty();
        }
    }
}
