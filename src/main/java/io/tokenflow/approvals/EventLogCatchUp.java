package io.tokenflow.approvals;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RedisConnections;
import io.tokenflow.coordinator.RedisKeys;

/**
 * Waits, briefly, until PostgreSQL holds a run's events up to the sequence number Redis has handed out: what the inbox
 * reads (approvals rows) follows from the event log, which the supervisor writes a moment after the events happen.
 */
@Component
class EventLogCatchUp {

    private static final long POLL_MILLIS = 50;

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final JdbcClient jdbc;

    EventLogCatchUp(RedisConnections redis, RedisKeys keys, JdbcClient jdbc) {
        this.redis = redis;
        this.keys = keys;
        this.jdbc = jdbc;
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
            String seq = redis.commands().hget(keys.run(run).meta(), "seq");
            long target = seq == null ? 0 : Long.parseLong(seq);
            while (persisted(run) < target) {
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

    private long persisted(UUID run) {
        return jdbc.sql("select coalesce(max(seq), 0) from event_log where run_id = :run").param("run", run)
                .query(Long.class).single();
    }
}
