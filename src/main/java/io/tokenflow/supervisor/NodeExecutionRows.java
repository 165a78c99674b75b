package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.ArrayColumns.EPOCH_MS;
import static io.tokenflow.supervisor.ArrayColumns.epochMillis;
import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.time;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeExecutionKey;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.NodeStatusTransitions;

/**
 * The {@code node_executions} rows: read back as statuses, inserted or updated; an update keeps what earlier events set
 * (first ready/start/end times win; later token, worker, output and error replace absent ones).
 */
@Component
class NodeExecutionRows {

    /** Both statements' rows, as {@code x} from the unnested arrays ({@link #columns()}). */
    private static final String FROM_ARRAYS = " from unnest(?::uuid[], ?::text[], ?::int[], ?::text[], ?::text[], "
            + "?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], "
            + "?::bool[]) as x(run_id, node_id, iteration, status, token_id, worker, output_ref, ready_ms, started_ms, "
            + "ended_ms, updated_ms, output, error, reopened)";

    /**
     * New executions: a plain insert, as the batch's run rows are locked and the executions were looked up under that
     * lock ({@link #storedStatuses}); an {@code on conflict} clause cost a speculative insertion per row.
     */
    private static final String INSERT = "insert into node_executions (run_id, node_id, iteration, status, token_id, "
            + "worker, output, output_ref, error, ready_at, started_at, ended_at, updated_at) "
            + "select x.run_id, x.node_id, x.iteration, x.status, x.token_id, x.worker, x.output::jsonb, x.output_ref, "
            + "x.error::jsonb::text, " + EPOCH_MS.formatted("x.ready_ms") + ", " + EPOCH_MS.formatted("x.started_ms")
            + ", " + EPOCH_MS.formatted("x.ended_ms") + ", " + EPOCH_MS.formatted("x.updated_ms") + FROM_ARRAYS;

    /**
     * Stored executions: what earlier events set is kept where these events leave it unset, except for an execution
     * the batch reopened (a resumed run dispatching it again), which starts afresh from these events.
     */
    private static final String UPDATE = "update node_executions e set status = x.status, "
            + latest("token_id", "x.token_id") + ", " + latest("worker", "x.worker") + ", "
            + latest("output", "x.output::jsonb") + ", " + latest("output_ref", "x.output_ref") + ", "
            + latest("error", "x.error::jsonb::text") + ", "
            + first("ready_at", EPOCH_MS.formatted("x.ready_ms")) + ", "
            + first("started_at", EPOCH_MS.formatted("x.started_ms")) + ", "
            + first("ended_at", EPOCH_MS.formatted("x.ended_ms")) + ", "
            + "updated_at = " + EPOCH_MS.formatted("x.updated_ms") + FROM_ARRAYS
            + " where e.run_id = x.run_id and e.node_id = x.node_id and e.iteration = x.iteration";

    private final JdbcTemplate jdbc;
    private final JdbcClient client;
    private final Clock clock;

    NodeExecutionRows(JdbcTemplate jdbc, JdbcClient client, Clock clock) {
        this.jdbc = jdbc;
        this.client = client;
        this.clock = clock;
    }

    /**
     * The stored statuses of the given executions (absent ones have no row yet), looked up by their exact keys in one
     * statement whose text does not depend on how many there are. Each key is one primary-key lookup ({@code limit 1}
     * keeps PostgreSQL from turning the lookups into a join, which for a large batch it would do by hashing the whole
     * table).
     */
    Map<RunNode, NodeStatus> storedStatuses(Set<RunNode> executions) {
        Map<RunNode, NodeStatus> statuses = new HashMap<>();
        ArrayColumns keys = new ArrayColumns("uuid", "text", "int4");
        executions.forEach(execution -> keys.add(execution.run(), execution.key().node(), execution.key().iteration()));
        keys.query(jdbc, "select k.run_id, k.node_id, k.iteration, n.status from unnest(?::uuid[], ?::text[], "
                + "?::int4[]) as k(run_id, node_id, iteration) cross join lateral (select e.status from node_executions e "
                + "where e.run_id = k.run_id and e.node_id = k.node_id and e.iteration = k.iteration limit 1) as n",
                (rs, i) -> statuses.put(new RunNode(rs.getObject("run_id", UUID.class),
                        new NodeExecutionKey(rs.getString("node_id"), rs.getInt("iteration"))),
                        NodeStatus.valueOf(rs.getString("status"))));
        return statuses;
    }

    /**
     * Writes the executions, each (run, node, iteration) at most once: those in {@code stored} (found by
     * {@link #storedStatuses} in this transaction) are updated, the others inserted; one statement each
     * ({@link ArrayColumns}).
     */
    void write(Map<RunNode, NodeExecution> executions, Set<RunNode> stored, Set<RunNode> reopened) {
        Long now = clock.millis();
        ArrayColumns inserted = columns();
        ArrayColumns updated = columns();
        executions.forEach((runNode, execution) -> (stored.contains(runNode) ? updated : inserted).add(
                runNode.run(), execution.key().node(), execution.key().iteration(), execution.status().name(),
                execution.token(), execution.worker(), execution.outputReference(), epochMillis(execution.readyAt()),
                epochMillis(execution.startedAt()), epochMillis(execution.endedAt()), now, json(execution.output()),
                json(execution.error()), reopened.contains(runNode)));
        inserted.execute(jdbc, INSERT);
        updated.execute(jdbc, UPDATE);
    }

    private static ArrayColumns columns() {
        return new ArrayColumns("uuid", "text", "int4", "text", "text", "text", "text", "int8", "int8", "int8", "int8",
                "text", "text", "bool");
    }

    /** A column the newest event that sets it wins (an unset value keeps the stored one). */
    private static String latest(String column, String value) {
        return column + " = case when x.reopened then " + value + " else coalesce(" + value + ", e." + column + ") end";
    }

    /** A time the first event that sets it wins. */
    private static String first(String column, String value) {
        return column + " = case when x.reopened then " + value + " else coalesce(e." + column + ", " + value + ") end";
    }

    /** Cancels every unfinished execution of a run that failed or was cancelled. */
    void cancelUnfinished(UUID run, Instant at) {
        client.sql("update node_executions set status = 'CANCELLED', ended_at = coalesce(ended_at, :at), "
                        + "updated_at = :now where run_id = :run and status in ("
                        + SqlValues.statuses(NodeStatusTransitions.sourcesOf(NodeStatus.CANCELLED)) + ")")
                .param("at", time(at)).param("now", time(clock.instant())).param("run", run)
                .update();
    }

    /** One node execution of one run. */
    record RunNode(UUID run, NodeExecutionKey key) {
    }
}
