package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.ArrayColumns.EPOCH_MS;
import static io.tokenflow.supervisor.ArrayColumns.epochMillis;
import static io.tokenflow.supervisor.ArrayColumns.jsonElements;
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
            + "occurred_at) select e.run_id, e.seq, e.event_type, e.node_id, e.token_id, d.e -> 'v', "
            + EPOCH_MS.formatted("e.at_ms") + " from unnest(?::uuid[], ?::bigint[], ?::text[], ?::text[], ?::text[], "
            + "?::bigint[]) with ordinality as e(run_id, seq, event_type, node_id, token_id, at_ms, n) "
            + "join " + jsonElements("d") + " on d.n = e.n on conflict (run_id, seq) do nothing";

    private final JdbcTemplate jdbc;

    EventLogRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void append(Map<UUID, List<RunEvent>> events) {
        ArrayColumns rows = new ArrayColumns("uuid", "int8", "text", "text", "text", "int8", ArrayColumns.JSON_ARRAY);
        events.forEach((run, ofRun) -> ofRun.forEach(event -> rows.add(run, event.seq(), event.type().wireName(),
                event.node(), event.token(), epochMillis(event.at()), json(event.data()))));
        rows.execute(jdbc, INSERT);
    }
}
