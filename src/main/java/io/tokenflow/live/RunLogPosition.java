package io.tokenflow.live;

import java.util.OptionalLong;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.redis.RunMeta;

/**
 * How far a run's events go: the last seq Redis handed out (the run's meta {@code seq}, while Redis holds the run), and
 * the last seq PostgreSQL's {@code event_log} holds (the supervisor writes it a moment later).
 */
@Component
public class RunLogPosition {

    private final RunMeta meta;
    private final JdbcClient jdbc;

    RunLogPosition(RunMeta meta, JdbcClient jdbc) {
        this.meta = meta;
        this.jdbc = jdbc;
    }

    /** The last seq Redis handed out; empty when Redis does not hold the run (unknown, or finished and let go). */
    public OptionalLong handedOut(UUID run) {
        return meta.seq(run);
    }

    /** The last seq in the run's event log (0 for none). */
    public long persisted(UUID run) {
        return jdbc.sql("select coalesce(max(seq), 0) from event_log where run_id = :run").param("run", run)
                .query(Long.class).single();
    }
}
