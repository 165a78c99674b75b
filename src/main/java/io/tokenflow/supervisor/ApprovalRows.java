package io.tokenflow.supervisor;

import static io.tokenflow.supervisor.SqlValues.json;
import static io.tokenflow.supervisor.SqlValues.time;

import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.ApprovalDecided;
import io.tokenflow.engine.replay.ApprovalEscalated;
import io.tokenflow.engine.replay.ApprovalRequested;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;

/**
 * The {@code approvals} rows the event log drives: created by {@code approval.requested}, moved by
 * {@code approval.escalated} and {@code approval.decided}, cancelled when their run fails or is cancelled. Redis holds
 * the pending set the engine decides against; these rows are what the inbox lists and what history keeps.
 */
@Component
class ApprovalRows {

    private static final String INSERT = "insert into approvals (id, run_id, node_id, token_id, status, approvers, "
            + "escalation_policy, escalated_to, title, instructions, payload, payload_ref, created_at, timeout_at) "
            + "values (?, ?, ?, ?, 'PENDING', cast(? as jsonb), ?, cast(? as jsonb), ?, ?, cast(? as jsonb), ?, ?, ?) "
            + "on conflict (id) do nothing";
    private static final int[] INSERT_TYPES = {Types.OTHER, Types.OTHER, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
            Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
            Types.TIMESTAMP_WITH_TIMEZONE, Types.TIMESTAMP_WITH_TIMEZONE};
    private static final String ESCALATE = "update approvals set approvers = cast(? as jsonb), escalation_level = ?, "
            + "timeout_at = ?, lock_version = lock_version + 1 where id = ? and status = 'PENDING'";
    private static final String DECIDE = "update approvals set status = ?, decision = ?, decided_by = ?, comment = ?, "
            + "decided_at = ?, lock_version = lock_version + 1 where id = ? and status = 'PENDING'";

    private final JdbcTemplate jdbc;

    ApprovalRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void project(Map<UUID, List<RunEvent>> applied) {
        List<Object[]> inserts = new ArrayList<>();
        List<Object[]> escalations = new ArrayList<>();
        List<Object[]> decisions = new ArrayList<>();
        List<Object[]> cancels = new ArrayList<>();
        applied.forEach((run, events) -> events.forEach(event -> {
            if (event instanceof ApprovalRequested requested) {
                inserts.add(inserted(run, requested));
            } else if (event instanceof ApprovalEscalated escalated) {
                escalations.add(new Object[] {json(escalated.data().get("approvers")), escalated.level(),
                        time(epoch(escalated.data().get("timeout_at"))), UUID.fromString(escalated.approvalId())});
            } else if (event instanceof ApprovalDecided decided) {
                decisions.add(new Object[] {decided.approved() ? "APPROVED" : "REJECTED", decided.decision(),
                        decided.decidedBy(), text(decided.data().get("comment")), time(decided.at()),
                        UUID.fromString(decided.approvalId())});
            } else if (event instanceof RunEnding ending && ending.endsAs() != RunStatus.COMPLETED) {
                cancels.add(new Object[] {time(ending.at()), run});
            }
        }));
        if (!inserts.isEmpty()) {
            jdbc.batchUpdate(INSERT, inserts, INSERT_TYPES);
        }
        if (!escalations.isEmpty()) {
            jdbc.batchUpdate(ESCALATE, escalations, new int[] {Types.VARCHAR, Types.INTEGER,
                    Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER});
        }
        if (!decisions.isEmpty()) {
            jdbc.batchUpdate(DECIDE, decisions, new int[] {Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
                    Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER});
        }
        if (!cancels.isEmpty()) {
            jdbc.batchUpdate("update approvals set status = 'CANCELLED', decided_at = ?, "
                    + "lock_version = lock_version + 1 where run_id = ? and status = 'PENDING'", cancels,
                    new int[] {Types.TIMESTAMP_WITH_TIMEZONE, Types.OTHER});
        }
    }

    private static Object[] inserted(UUID run, ApprovalRequested requested) {
        JsonNode data = requested.data();
        JsonNode input = data.get("input");
        String reference = NodeExecution.referenceIn(input);
        return new Object[] {UUID.fromString(requested.approvalId()), run, requested.node(), requested.token(),
                json(data.get("approvers")), text(data.get("escalation_policy")), json(data.get("escalate_to")),
                text(data.get("title")), text(data.get("instructions")), reference == null ? json(input) : null,
                reference, time(requested.at()),
                time(epoch(data.get("timeout_at")))};
    }

    private static String text(JsonNode value) {
        return value == null || !value.isString() ? null : value.asString();
    }

    private static Instant epoch(JsonNode value) {
        return value == null || !value.isNumber() ? null : Instant.ofEpochMilli(value.asLong());
    }
}
