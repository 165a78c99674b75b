package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.ArrayColumns.EPOCH_MS;
import static io.tokenflow.supervisor.ArrayColumns.epochMillis;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvent;

/** Appends to {@code event_log}, keyed by {@code (run_id, seq)}: one statement per batch ({@link ArrayColumns}). */
@Component
class EventLogRows {

    /**
     * A plain insert: the batch holds only events after the last seq each run's log had when the batch locked the
     * run's row ({@link RunRows#lockLogged}), so no row can be there already, and {@code on conflict do nothing} cost a
     * speculative insertion per row. The data goes as text ({@code json} keeps it as it is, see V20).
     */
    private static final String INSERT = "insert into event_log (run_id, seq, event_type, node_id, token_id, data, "
            + "occurred_at) select e.run_id, e.seq, e.event_type, e.node_id, e.token_id, e.data::json, "
            + EPOCH_MS.formatted("e.at_ms") + " from unnest(?::uuid[], ?::bigint[], ?::text[], ?::text[], ?::text[], "
            + "?::bigint[], ?::text[]) as e(run_id, seq, event_type, node_id, token_id, at_ms, data)";

    private final JdbcTemplate jdbc;

    EventLogRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void append(Map<UUID, List<RunEvent>> events) {
        ArrayColumns rows = new ArrayColumns("uuid", "int8", "text", "text", "text", "int8", "text");
        events.forEach((run, ofRun) -> ofRun.forEach(event -> rows.add(run, event.seq(), event.type().wireName(),
                event.node(), event.token(), epochMillis(event.at()), event.header().dataJson())));
        rows.execute(jdbc, INSERT);
    }
}
