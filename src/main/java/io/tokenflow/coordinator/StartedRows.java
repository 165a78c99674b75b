package io.tokenflow.coordinator;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code runs} row a start wrote before it was answered ({@code runs.StartRows}), read back for a run Redis lost
 * before its {@code run.started} reached the event log: the row is then all that knows how the run began.
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

    /** The row of the run if PostgreSQL holds it as running. */
    Optional<StartedRow> running(UUID run) {
        return jdbc.sql("select workflow_id, workflow_version, tag, inputs::text as inputs, submitted_by, "
                        + "idempotency_key from runs where id = ? and status = 'RUNNING'").param(run)
                .query((rs, i) -> new StartedRow(rs.getObject("workflow_id", UUID.class),
                        rs.getInt("workflow_version"), rs.getString("tag"), json.readTree(rs.getString("inputs")),
                        rs.getString("submitted_by"), rs.getString("idempotency_key")))
                .optional();
    }
}
