package io.tokenflow.approvals;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.live.RunLogPosition;

/**
 * Waits, briefly, until PostgreSQL holds a run's events up to the sequence number Redis has handed out: what the inbox
 * reads (approvals rows) follows from the event log, which the supervisor writes a moment after the events happen.
 */
@Component
class EventLogCatchUp {

    private static final long POLL_MILLIS = 50;

    private final RunLogPosition position;

    EventLogCatchUp(RunLogPosition position) {
        this.position = position;
    }

    /** Whether every run's log caught up within {@code atMost} (runs no longer in Redis count as caught up). */
    boolean await(Set<UUID> runs, Duration atMost) {
        return behind(runs, atMost).isEmpty();
    }

    /**
     * Waits at most {@code atMost} for the runs' logs to catch up; returns the runs whose log still lags (runs no longer
     * in Redis count as caught up).
     */
    Set<UUID> behind(Set<UUID> runs, Duration atMost) {
        long deadline = System.nanoTime() + atMost.toNanos();
        Set<UUID> behind = new LinkedHashSet<>();
        for (UUID run : runs) {
            long target = position.handedOut(run).orElse(0);
            while (position.persisted(run) < target) {
                if (System.nanoTime() > deadline || !sleep()) {
                    behind.add(run);
                    break;
                }
            }
        }
        return behind;
    }

    private static boolean sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
