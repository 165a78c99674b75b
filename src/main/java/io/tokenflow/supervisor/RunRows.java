package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.statuses;
import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.engine.runs.RunStatusTransitions;

/** The {@code runs} rows the event log drives: created by {@code run.started}, ended by the ending events. */
@Component
class RunRows {

    private static final Log log = LogFactory.getLog(RunRows.class);
    private static final String INSERT = "insert into runs (id, workflow_id, workflow_version, tag, ir_revision, shard, "
            + "status, idempotency_key, inputs, submitted_by, created_at, started_at, last_event_at) "
            + "values (?, ?, ?, ?, ?, ?, 'RUNNING', ?, coalesce(cast(? as jsonb), '{}'::jsonb), ?, ?, ?, ?) "
            + "on conflict (id) do update set status = 'RUNNING', started_at = excluded.started_at "
            + "where runs.status in (" + statuses(RunStatusTransitions.sourcesOf(RunStatus.RUNNING)) + ")";
    private static final int[] INSERT_TYPES = {Types.OTHER, Types.OTHER, Types.INTEGER, Types.VARCHAR, Types.INTEGER,
            Types.INTEGER, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE,
            Types.TIMESTAMP_WITH_TIMEZONE, Types.TIMESTAMP_WITH_TIMEZONE};
    private static final tools.jackson.databind.json.JsonMapper JSON = tools.jackson.databind.json.JsonMapper.builder()
            .build();

    private final JdbcTemplate jdbc;
    private final JdbcClient client;

    RunRows(JdbcTemplate jdbc, JdbcClient client) {
        this.jdbc = jdbc;
        this.client = client;
    }

    /** Creates the rows of started runs (a row the API created as {@code PENDING} becomes {@code RUNNING}). */
    void insertStarted(int shard, Map<UUID, RunStarted> started) {
        List<Object[]> rows = started.entrySet().stream().map(entry -> {
            RunStarted event = entry.getValue();
            return new Object[] {entry.getKey(), event.workflowId(), event.workflowVersion(), event.tag(),
                    event.irRevision(), shard, event.idempotencyKey(), json(event.inputs()), event.submittedBy(),
                    time(event.at()), time(event.at()), time(event.at())};
        }).toList();
        if (!rows.isEmpty()) {
            jdbc.batchUpdate(INSERT, rows, INSERT_TYPES);
        }
    }

    /** Locks the rows of the runs that exist and returns, for each, the last seq in its event log (0 for none). */
    Map<UUID, Long> lockLogged(Collection<UUID> runs) {
        Map<UUID, Long> logged = new HashMap<>();
        if (runs.isEmpty()) {
            return logged;
        }
        client.sql("select r.id, coalesce((select max(e.seq) from event_log e where e.run_id = r.id), 0) as last_seq "
                        + "from runs r where r.id in (:runs) order by r.id for update of r")
                .param("runs", List.copyOf(runs))
                .query((rs, i) -> logged.put(rs.getObject("id", UUID.class), rs.getLong("last_seq")))
                .list();
        return logged;
    }

    /** Moves each run's {@code last_event_at} forward to its latest applied event. */
    void recordActivity(Map<UUID, List<RunEvent>> applied) {
        List<Object[]> rows = applied.entrySet().stream().map(entry -> new Object[] {
                time(entry.getValue().stream().map(RunEvent::at).max(Instant::compareTo).orElseThrow()),
                entry.getKey()}).toList();
        if (rows.isEmpty()) {
            return;
        }
        jdbc.batchUpdate("update runs set last_event_at = greatest(last_event_at, ?) where id = ?", rows,
                new int[] {Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER});
    }

    /**
     * Adds the outputs of terminal completions (nodes that emitted nothing) to their runs' {@code outputs}, one
     * statement per batch; each completion is applied once, as the event log is.
     */
    void addOutputs(Map<UUID, List<RunEvent>> applied) {
        List<Object[]> rows = new ArrayList<>();
        applied.forEach((run, events) -> {
            Map<String, JsonNode> outputs = new java.util.LinkedHashMap<>();
            events.stream().filter(NodeCompleted.class::isInstance).map(NodeCompleted.class::cast)
                    .filter(NodeCompleted::terminal).forEach(done -> outputs.put(done.node(), done.output()));
            if (!outputs.isEmpty()) {
                rows.add(new Object[] {json(JSON.valueToTree(outputs)), run});
            }
        });
        if (!rows.isEmpty()) {
            jdbc.batchUpdate("update runs set outputs = coalesce(outputs, '{}'::jsonb) || cast(? as jsonb) where id = ?",
                    rows, new int[] {Types.VARCHAR, Types.OTHER});
        }
    }

    /**
     * Ends runs as their ending events say, in one statement per kind of ending; a move the run status table forbids
     * is logged and not applied. Every ending leaves the counter at 0 (a completion reaches it; a failure or cancel
     * reconciles to it, dropping tokens).
     */
    void endAll(Map<UUID, RunEnding> endings) {
        Map<RunStatus, List<Map.Entry<UUID, RunEnding>>> byStatus = new java.util.EnumMap<>(RunStatus.class);
        endings.entrySet().forEach(e -> byStatus.computeIfAbsent(e.getValue().endsAs(), s -> new ArrayList<>()).add(e));
        byStatus.forEach((status, ofStatus) -> {
            int[] updated = jdbc.batchUpdate("update runs set status = ?, ended_at = ?, error = ?, final_counter = 0, "
                            + "outputs = coalesce(outputs, '{}'::jsonb) "
                            + "where id = ? and status in (" + statuses(RunStatusTransitions.sourcesOf(status)) + ")",
                    ofStatus.stream().map(e -> new Object[] {status.name(), time(e.getValue().at()), e.getValue().error(),
                            e.getKey()}).toList(),
                    new int[] {Types.VARCHAR, Types.TIMESTAMP_WITH_TIMEZONE, Types.VARCHAR, Types.OTHER});
            for (int i = 0; i < updated.length; i++) {
                Map.Entry<UUID, RunEnding> ending = ofStatus.get(i);
                if (updated[i] == 0) {
                    log.warn("Expected run " + ending.getKey() + " to be allowed to move to " + status + " (event "
                            + ending.getValue().seq() + "), but its status forbids it; the status is kept");
                }
            }
        });
    }
}
