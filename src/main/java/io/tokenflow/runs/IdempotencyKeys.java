package io.tokenflow.runs;

import java.util.Optional;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunStarter;

/**
 * Binds a start's idempotency key to the run it makes, for good: Redis answers a retried start for a day (the key's
 * time to live); after that, or when Redis lost the binding, the {@code runs} row the event log wrote answers it, and
 * the key is bound in Redis again. Only when neither knows the key is a new run made.
 */
@Component
class IdempotencyKeys {

    private static final Log log = LogFactory.getLog(IdempotencyKeys.class);

    private final RunStarter starter;
    private final JdbcClient jdbc;

    IdempotencyKeys(RunStarter starter, JdbcClient jdbc) {
        this.starter = starter;
        this.jdbc = jdbc;
    }

    /** Binds the key to a new run id; the run it is already bound to, if any. */
    Optional<UUID> bind(String key, UUID runId) {
        Optional<UUID> bound = starter.boundRun(key);
        if (bound.isPresent()) {
            return bound;
        }
        Optional<UUID> logged = loggedRun(key);
        if (logged.isPresent()) {
            return starter.claim(key, logged.get()).or(() -> logged);
        }
        return starter.claim(key, runId);
    }

    /** Unbinds the key from a run that could not be started, so a retry can start it. */
    void release(String key, UUID runId) {
        starter.release(key, runId);
    }

    private Optional<UUID> loggedRun(String key) {
        try {
            return jdbc.sql("select id from runs where idempotency_key = ?").param(key).query(UUID.class).optional();
        } catch (DataAccessException e) {
            // starts go on while PostgreSQL is away; the run rows tolerate a key taken twice (RunRows)
            log.warn("Could not look up idempotency key '" + key + "' in PostgreSQL; starting as Redis says: "
                    + e.getMostSpecificCause().getMessage());
            return Optional.empty();
        }
    }
}
