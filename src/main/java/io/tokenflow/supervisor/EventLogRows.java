package io.tokenflow.supervisor;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvent;

/**
 * Appends to {@code event_log}, keyed by {@code (run_id, seq)}: one {@code COPY} per batch ({@link CopyRows}). It is a
 * plain insert: the batch holds only events after the last seq each run's log had when the batch locked the run's row
 * ({@link RunRows#lockLogged}), so no row can be there already. The data goes as the text the Lua step wrote
 * ({@code json} checks it and keeps it as it is, see V20); the time to the millisecond, as events carry it.
 */
@Component
class EventLogRows {

    private static final String TABLE = "event_log (run_id, seq, event_type, node_id, token_id, occurred_at, data)";

    private final JdbcTemplate jdbc;

    EventLogRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void append(Map<UUID, List<RunEvent>> events) {
        CopyRows rows = new CopyRows(7);
        events.forEach((run, ofRun) -> ofRun.forEach(event -> rows.uuid(run).bigint(event.seq())
                .text(event.type().wireName()).text(event.node()).text(event.token())
                .timestamptz(Instant.ofEpochMilli(event.at().toEpochMilli())).json(event.header().dataJson())));
        rows.copyInto(jdbc, TABLE);
    }
}
