package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvent;

/** Appends to {@code event_log}, idempotent on {@code (run_id, seq)}. */
@Component
class EventLogRows {

    private static final String INSERT = "insert into event_log (run_id, seq, event_type, node_id, token_id, data, "
            + "occurred_at) values (?, ?, ?, ?, ?, cast(? as jsonb), ?) on conflict (run_id, seq) do nothing";
    private static final int[] TYPES = {Types.OTHER, Types.BIGINT, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
            Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE};

    private final JdbcTemplate jdbc;

    EventLogRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void append(Map<UUID, List<RunEvent>> events) {
        List<Object[]> rows = new ArrayList<>();
        events.forEach((run, ofRun) -> ofRun.forEach(event -> rows.add(new Object[] {run, event.seq(),
                event.type().wireName(), event.node(), event.token(), json(event.data()), time(event.at())})));
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(INSERT, rows, TYPES);
        }
    }
}
