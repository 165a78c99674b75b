package io.tokenflow.workers.runtime;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.quarantine.NewQuarantinedEntry;
import io.tokenflow.quarantine.Quarantine;

/**
 * Sets task-stream entries a worker cannot process aside in the quarantine ({@code /quarantine}), with their raw text
 * and why, as the supervisor does with events-stream entries: a token without its identifiers (nothing can be
 * reported for it, so it would otherwise only be dropped) and a token that does not decode (its run is failed through
 * the permanent failure the worker reports; the quarantine keeps what the entry held).
 */
@Component
class PoisonedTasks {

    private static final Logger log = LoggerFactory.getLogger(PoisonedTasks.class);

    private final Quarantine quarantine;

    PoisonedTasks(Quarantine quarantine) {
        this.quarantine = quarantine;
    }

    /** Sets the entry aside; false when the quarantine could not take it (PostgreSQL unreachable). */
    boolean setAside(TaskEntry entry, String reason) {
        try {
            long id = quarantine.add(new NewQuarantinedEntry(entry.shard(), entry.stream(), entry.id(),
                    entry.runId().orElse(null), null, null, entry.fields(), reason));
            log.warn("Set task-stream entry {} of {} aside in quarantine {}: {}", entry.id(), entry.stream(), id, reason);
            return true;
        } catch (RuntimeException e) {
            log.warn("Could not set task-stream entry {} of {} aside ({}): {}", entry.id(), entry.stream(), reason,
                    e.getMessage());
            return false;
        }
    }
}
