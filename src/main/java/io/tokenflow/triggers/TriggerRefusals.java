package io.tokenflow.triggers;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.StorableValues;

/** Every refused webhook call, recorded for operators: who called, what was wrong, how large the body was (not it). */
@Component
class TriggerRefusals {

    private static final Log log = LogFactory.getLog(TriggerRefusals.class);
    private static final int MAX_NAME = 200;
    private static final int MAX_REASON = 2000;

    private final JdbcClient jdbc;
    private final Clock clock;

    TriggerRefusals(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    void record(WebhookCall call, UUID workflowId, int status, String reason) {
        log.info("Refused webhook call to " + call.workflow() + "/" + call.trigger() + " from " + call.remoteAddress()
                + " (" + status + "): " + reason);
        jdbc.sql("insert into trigger_refusals (received_at, workflow, workflow_id, trigger_id, status, reason, "
                        + "remote_address, body_bytes) values (:at, :workflow, :workflowId, :trigger, :status, "
                        + ":reason, :remote, :bytes)")
                .param("at", Timestamp.from(clock.instant()))
                .param("workflow", shortened(call.workflow(), MAX_NAME)).param("workflowId", workflowId)
                .param("trigger", shortened(call.trigger(), MAX_NAME)).param("status", status)
                .param("reason", shortened(reason, MAX_REASON)).param("remote", call.remoteAddress())
                .param("bytes", call.body().length)
                .update();
    }

    /** The workflow's most recent refusals, newest first. */
    List<Refusal> recent(UUID workflowId, int limit) {
        return jdbc.sql("select id, received_at, trigger_id, status, reason, remote_address, body_bytes from "
                        + "trigger_refusals where workflow_id = :workflow order by id desc limit :limit")
                .param("workflow", workflowId).param("limit", limit)
                .query((rs, i) -> new Refusal(rs.getLong("id"), rs.getTimestamp("received_at").toInstant(),
                        rs.getString("trigger_id"), rs.getInt("status"), rs.getString("reason"),
                        rs.getString("remote_address"), rs.getInt("body_bytes")))
                .list();
    }

    /** Text as PostgreSQL can keep it, shortened: it comes from an unauthenticated caller. */
    private static String shortened(String value, int max) {
        String storable = StorableValues.storable(value);
        return storable.length() <= max ? storable : storable.substring(0, max);
    }

    /** One refused call. */
    record Refusal(long id, Instant receivedAt, String trigger, int status, String reason, String remoteAddress,
                   int bodyBytes) {
    }
}
