package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.NodeDiscarded;
import io.tokenflow.engine.replay.NodeParked;
import io.tokenflow.engine.replay.NodeReprocessed;
import io.tokenflow.engine.replay.NodeUnparked;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;

/**
 * The {@code dlq} rows the event log drives: an entry per {@code node.parked}, resolved by {@code node.reprocessed}
 * ({@code REQUEUED}), {@code node.discarded} ({@code DISCARDED}), a late completion of the task ({@code node.unparked}:
 * {@code COMPLETED}) or its run failing or being cancelled otherwise ({@code RUN_ENDED}). Redis holds the parked task the engine sends again;
 * these rows are what the dead-letter page and API list.
 */
@Component
class DlqRows {

    private static final String INSERT = "insert into dlq (id, run_id, node_id, node_type, token_id, iteration, "
            + "attempts, error_kind, error, error_code, payload, payload_ref, created_at) "
            + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, ?) on conflict (id) do nothing";
    private static final int[] INSERT_TYPES = {Types.OTHER, Types.OTHER, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
            Types.INTEGER, Types.INTEGER, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
            Types.TIMESTAMP_WITH_TIMEZONE};
    private static final String RESOLVE = "update dlq set resolved_at = ?, resolution = ?, resolved_by = ? "
            + "where id = ? and resolved_at is null";

    private final JdbcTemplate jdbc;

    DlqRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void project(Map<UUID, List<RunEvent>> applied) {
        List<Object[]> inserts = new ArrayList<>();
        List<Object[]> resolutions = new ArrayList<>();
        List<Object[]> closings = new ArrayList<>();
        applied.forEach((run, events) -> events.forEach(event -> {
            if (event instanceof NodeParked parked) {
                inserts.add(inserted(run, parked));
            } else if (event instanceof NodeReprocessed reprocessed) {
                resolutions.add(new Object[] {time(reprocessed.at()), "REQUEUED", reprocessed.by(),
                        UUID.fromString(reprocessed.dlqId())});
            } else if (event instanceof NodeDiscarded discarded) {
                resolutions.add(new Object[] {time(discarded.at()), "DISCARDED", discarded.by(),
                        UUID.fromString(discarded.dlqId())});
            } else if (event instanceof NodeUnparked unparked) {
                closings.add(new Object[] {time(unparked.at()), "COMPLETED", run, unparked.token()});
            } else if (event instanceof RunEnding ending && ending.endsAs() != RunStatus.COMPLETED) {
                closings.add(new Object[] {time(ending.at()), "RUN_ENDED", run, null});
            }
        }));
        if (!inserts.isEmpty()) {
            jdbc.batchUpdate(INSERT, inserts, INSERT_TYPES);
        }
        if (!resolutions.isEmpty()) {
            jdbc.batchUpdate(RESOLVE, resolutions, new int[] {Types.TIMESTAMP_WITH_TIMEZONE, Types.VARCHAR,
                    Types.VARCHAR, Types.OTHER});
        }
        // after the resolutions: a discard's run.failed must not close the entry it discarded
        if (!closings.isEmpty()) {
            jdbc.batchUpdate("update dlq set resolved_at = ?, resolution = ?, resolved_by = 'engine' "
                    + "where run_id = ? and (cast(? as text) is null or token_id = ?) and resolved_at is null",
                    closings.stream().map(row -> new Object[] {row[0], row[1], row[2], row[3], row[3]}).toList(),
                    new int[] {Types.TIMESTAMP_WITH_TIMEZONE, Types.VARCHAR, Types.OTHER, Types.VARCHAR,
                            Types.VARCHAR});
        }
    }

    private static Object[] inserted(UUID run, NodeParked parked) {
        JsonNode error = parked.error();
        String kind = error == null ? "" : error.path("kind").asString("");
        String code = error == null || !error.path("code").isString() ? null : error.path("code").asString();
        String message = error == null ? "" : error.path("message").asString("");
        return new Object[] {UUID.fromString(parked.dlqId()), run, parked.node(),
                parked.nodeType() == null ? "" : parked.nodeType(), parked.token(), parked.iteration(),
                parked.attempts(), "transient".equals(kind) ? "TRANSIENT" : "PERMANENT",
                message.isEmpty() ? kind.toLowerCase(Locale.ROOT) : message, code,
                parked.input() == null ? null : json(parked.input()), parked.inputRef(), time(parked.at())};
    }
}
