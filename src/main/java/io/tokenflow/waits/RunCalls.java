package io.tokenflow.waits;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Payloads;
import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The {@code run_calls} table: which run and workflow node started each child run, and how deep it is nested. It is
 * the link the API and the run pages show, and what a child's ending is routed back to its parent by.
 */
@Component
class RunCalls {

    private final JdbcClient jdbc;
    private final Payloads payloads;

    RunCalls(JdbcClient jdbc, Payloads payloads) {
        this.jdbc = jdbc;
        this.payloads = payloads;
    }

    /** A child's link to the node that started it. */
    record Call(UUID child, UUID parent, String node, String token) {
    }

    /** How deeply the run is nested in calls: 0 for a run nobody called. */
    int depthOf(UUID run) {
        return jdbc.sql("select depth from run_calls where child_run_id = ?").param(run).query(Integer.class)
                .optional().orElse(0);
    }

    /** Records that {@code child} was started by {@code token} at {@code node} of {@code parent}; once. */
    void record(UUID child, UUID parent, String node, String token, int depth, Instant at) {
        jdbc.sql("insert into run_calls (child_run_id, parent_run_id, parent_node, parent_token, depth, called_at) "
                        + "values (?, ?, ?, ?, ?, ?) on conflict do nothing")
                .params(child, parent, node, token, depth, Timestamp.from(at)).update();
    }

    /** The calls that started any of the given runs. */
    List<Call> callsOf(Collection<UUID> children) {
        return jdbc.sql("select child_run_id, parent_run_id, parent_node, parent_token from run_calls "
                        + "where child_run_id = any(?)").param(children.toArray(UUID[]::new))
                .query(RunCalls::call).list();
    }

    /** The calls of the given runs whose children have not ended (or whose rows the event log has not written). */
    List<Call> unendedCallsOf(Collection<UUID> parents) {
        return jdbc.sql("select c.child_run_id, c.parent_run_id, c.parent_node, c.parent_token from run_calls c "
                        + "left join runs r on r.id = c.child_run_id "
                        + "where c.parent_run_id = any(?) and (r.id is null or r.status in ('PENDING', 'RUNNING'))")
                .param(parents.toArray(UUID[]::new)).query(RunCalls::call).list();
    }

    private static Call call(ResultSet row, int rowNumber) throws SQLException {
        return new Call(row.getObject(1, UUID.class), row.getObject(2, UUID.class), row.getString(3),
                row.getString(4));
    }

    /**
     * How the child ended, or empty while it runs (or its row is not written yet). The error of a failed child is
     * its run's error followed by the message of the node that failed last (a run's error names the node only).
     */
    Optional<ChildEnding> ending(UUID child) {
        return jdbc.sql("select r.status, r.outputs::text, r.error, w.name, r.workflow_version, (select e.error "
                        + "from node_executions e where e.run_id = r.id and e.status = 'FAILED' order by e.ended_at "
                        + "desc nulls last limit 1) from runs r join workflows w on w.id = r.workflow_id "
                        + "where r.id = ? and r.status in ('COMPLETED', 'FAILED', 'CANCELLED')").param(child)
                .query((row, n) -> new ChildEnding(child, row.getString(4) + " v" + row.getInt(5),
                        RunStatus.valueOf(row.getString(1)), row.getString(2) == null
                        ? JsonNodeFactory.instance.objectNode() : payloads.parse(row.getString(2)),
                        error(row.getString(3), row.getString(6)))).optional();
    }

    private String error(String runError, String nodeError) {
        String message = nodeError == null ? null : nodeError.startsWith("{")
                ? payloads.parse(nodeError).path("message").asString(null) : nodeError;
        if (message == null || (runError != null && runError.contains(message))) {
            return runError;
        }
        return runError == null ? message : runError + ": " + message;
    }
}
