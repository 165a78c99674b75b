package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.statuses;
import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

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
    private static final String OUTPUTS = "update runs set outputs = (select coalesce(jsonb_object_agg(t.node_id, "
            + "t.output), '{}'::jsonb) from (select distinct on (n.node_id) n.node_id, n.output from node_executions n "
            + "where n.run_id = :run and n.status = 'COMPLETED' and not exists (select 1 from event_log e "
            + "where e.run_id = n.run_id and e.event_type = 'token.emitted' and e.data ->> 'from' = n.node_id) "
            + "order by n.node_id, n.iteration desc) t) where id = :run";

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
     * Ends a run as its ending event says; a move the run status table forbids is logged and not applied. Every
     * ending leaves the counter at 0 (a completion reaches it; a failure or cancel reconciles to it, dropping tokens).
     */
    void end(UUID run, RunEnding ending) {
        int updated = client.sql("update runs set status = :status, ended_at = :at, error = :error, "
                        + "final_counter = :counter where id = :run and status in ("
                        + statuses(RunStatusTransitions.sourcesOf(ending.endsAs())) + ")")
                .param("status", ending.endsAs().name()).param("at", time(ending.at()))
                .param("error", ending.error()).param("counter", 0).param("run", run)
                .update();
        if (updated == 0) {
            log.warn("Expected run " + run + " to be allowed to move to " + ending.endsAs() + " (event "
                    + ending.seq() + "), but its status forbids it; the status is kept");
        } else if (ending.endsAs() == RunStatus.COMPLETED) {
            client.sql(OUTPUTS).param("run", run).update();
        }
    }
}
