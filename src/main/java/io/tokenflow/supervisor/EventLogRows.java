package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.ArrayColumns.EPOCH_MS;
import static io.tokenflow.supervisor.ArrayColumns.epochMillis;
import static io.tokenflow.supervisor.SqlValues.json;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvent;

/** Appends to {@code event_log}, idempotent on {@code (run_id, seq)}: one statement per batch ({@link ArrayColumns}). */
@Component
class EventLogRows {

    private static final String INSERT = "insert into event_log (run_id, seq, event_type, node_id, token_id, data, "
            + "occurred_at) select run_id, seq, event_type, node_id, token_id, data, " + EPOCH_MS.formatted("at_ms")
            + " from unnest(?::uuid[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::jsonb[], ?::bigint[]) "
            + "as e(run_id, seq, event_type, node_id, token_id, data, at_ms) on conflict (run_id, seq) do nothing";

    private final JdbcTemplate jdbc;

    EventLogRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void append(Map<UUID, List<RunEvent>> events) {
        ArrayColumns rows = new ArrayColumns("uuid", "int8", "text", "text", "text", "text", "int8");
        events.forEach((run, ofRun) -> ofRun.forEach(event -> rows.add(run, event.seq(), event.type().wireName(),
                event.node(), event.token(), json(event.data()), epochMillis(event.at()))));
        rows.execute(jdbc, INSERT);
    }
}
