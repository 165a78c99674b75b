package io.tokenflow.coordinator;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code run_starts} row a start wrote before it was answered ({@code runs.StartRows}), read back for a run Redis
 * lost before its {@code run.started} reached the event log: the row is then all that knows how the run began.
 */
@Component
class StartedRows {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    StartedRows(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** How a run began, as its row says. */
    record StartedRow(UUID workflowId, int workflowVersion, String tag, JsonNode inputs, String submittedBy,
                      String idempotencyKey) {
    }

    /**
     * The start of the run if the event log has nothing of it: no {@code runs} row (the log writes it with {@code
     * run.started}) and nothing in quarantine (a start whose events PostgreSQL refused is not made again).
     */
    Optional<StartedRow> unlogged(UUID run) {
        return jdbc.sql("select workflow_id, workflow_version, tag, inputs::text as inputs, submitted_by, "
                        + "idempotency_key from run_starts s where id = :run and not exists (select 1 from runs r "
                        + "where r.id = :run) and not exists (select 1 from quarantined_entries q where q.run_id = :run)")
                .param("run", run)
                .query((rs, i) -> new StartedRow(rs.getObject("workflow_id", UUID.class),
                        rs.getInt("workflow_version"), rs.getString("tag"), json.readTree(rs.getString("inputs")),
                        rs.getString("submitted_by"), rs.getString("idempotency_key")))
                .optional();
    }
}
