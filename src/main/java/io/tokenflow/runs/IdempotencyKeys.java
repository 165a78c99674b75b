package io.tokenflow.runs;

import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunStarter;

/**
 * Binds a start's idempotency key to the run it makes, for good: Redis answers a retried start for a day (the key's
 * time to live); after that, or when Redis lost the binding, the {@code runs} row answers it (written before the
 * first start was answered, {@link StartRows}), and the key is bound in Redis again. Only when neither knows the key
 * is a new run made.
 */
@Component
class IdempotencyKeys {

    private final RunStarter starter;
    private final StartRows rows;

    IdempotencyKeys(RunStarter starter, StartRows rows) {
        this.starter = starter;
        this.rows = rows;
    }

    /** Binds the key to a new run id; the run it is already bound to, if any. */
    Optional<UUID> bind(String key, UUID runId) {
        Optional<UUID> bound = starter.boundRun(key);
        if (bound.isPresent()) {
            return bound;
        }
        // starts go on while PostgreSQL is away; the run rows tolerate a key taken twice (supervisor.RunRows)
        Optional<UUID> logged = rows.runOfKey(key);
        if (logged.isPresent()) {
            return starter.claim(key, logged.get()).or(() -> logged);
        }
        return starter.claim(key, runId);
    }

    /** Unbinds the key from a run that could not be started, so a retry can start it. */
    void release(String key, UUID runId) {
        starter.release(key, runId);
    }
}
