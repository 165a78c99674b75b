package io.tokenflow.triggers;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The cron ticks claimed in PostgreSQL: one row per tick, whichever instance inserted it first. */
@Component
class TriggerFires {

    private final JdbcClient jdbc;
    private final Clock clock;

    TriggerFires(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The newest tick any instance claimed for the trigger. */
    Optional<Instant> last(UUID workflowId, String triggerId) {
        return jdbc.sql("select fire_at from trigger_fires where workflow_id = :workflow and trigger_id = :trigger "
                        + "order by fire_at desc limit 1")
                .param("workflow", workflowId).param("trigger", triggerId)
                .query((rs, i) -> rs.getTimestamp(1).toInstant()).optional();
    }

    /** Claims the tick; true only for the one caller, of all instances, whose row went in. */
    boolean claim(UUID workflowId, int version, String triggerId, CronSchedule.Fire fire, String instance) {
        return jdbc.sql("insert into trigger_fires (workflow_id, trigger_id, fire_at, workflow_version, outcome, "
                        + "missed_ticks, claimed_at, claimed_by) values (:workflow, :trigger, :at, :version, :outcome, "
                        + ":missed, :now, :instance) on conflict do nothing")
                .param("workflow", workflowId).param("trigger", triggerId).param("at", Timestamp.from(fire.at()))
                .param("version", version).param("outcome", fire.start() ? "claimed" : "skipped")
                .param("missed", fire.missedTicks()).param("now", Timestamp.from(clock.instant()))
                .param("instance", instance).update() == 1;
    }

    /** Claims still unfinished that were made before {@code before}, oldest first. */
    List<Claim> stale(Instant before, int limit) {
        return jdbc.sql("select workflow_id, trigger_id, fire_at, workflow_version from trigger_fires where outcome = "
                        + "'claimed' and claimed_at < :before order by claimed_at limit :limit")
                .param("before", Timestamp.from(before)).param("limit", limit)
                .query((rs, i) -> new Claim(rs.getObject("workflow_id", UUID.class), rs.getString("trigger_id"),
                        rs.getTimestamp("fire_at").toInstant(), rs.getInt("workflow_version")))
                .list();
    }

    /** Takes an unfinished claim over; true only for the one instance, of all, that did. */
    boolean reclaim(Claim claim, Instant before, String instance) {
        return jdbc.sql("update trigger_fires set claimed_at = :now, claimed_by = :instance where workflow_id = "
                        + ":workflow and trigger_id = :trigger and fire_at = :at and outcome = 'claimed' and "
                        + "claimed_at < :before")
                .param("now", Timestamp.from(clock.instant())).param("instance", instance)
                .param("workflow", claim.workflowId()).param("trigger", claim.triggerId())
                .param("at", Timestamp.from(claim.fireAt())).param("before", Timestamp.from(before)).update() == 1;
    }

    void started(UUID workflowId, String triggerId, Instant at, UUID runId) {
        finish(workflowId, triggerId, at, "started", runId, null);
    }

    void failed(UUID workflowId, String triggerId, Instant at, String error) {
        finish(workflowId, triggerId, at, "failed", null, error.length() > 2000 ? error.substring(0, 2000) : error);
    }

    /** The trigger's most recent fires, newest first. */
    List<Fired> recent(UUID workflowId, String triggerId, int limit) {
        return jdbc.sql("select fire_at, workflow_version, outcome, missed_ticks, run_id, error, claimed_by from "
                        + "trigger_fires where workflow_id = :workflow and trigger_id = :trigger order by fire_at desc "
                        + "limit :limit")
                .param("workflow", workflowId).param("trigger", triggerId).param("limit", limit)
                .query((rs, i) -> new Fired(rs.getTimestamp("fire_at").toInstant(), rs.getInt("workflow_version"),
                        rs.getString("outcome"), rs.getInt("missed_ticks"), rs.getObject("run_id", UUID.class),
                        rs.getString("error"), rs.getString("claimed_by")))
                .list();
    }

    private void finish(UUID workflowId, String triggerId, Instant at, String outcome, UUID runId, String error) {
        jdbc.sql("update trigger_fires set outcome = :outcome, run_id = :run, error = :error where workflow_id = "
                        + ":workflow and trigger_id = :trigger and fire_at = :at")
                .param("outcome", outcome).param("run", runId).param("error", error).param("workflow", workflowId)
                .param("trigger", triggerId).param("at", Timestamp.from(at)).update();
    }

    /** A claimed tick whose start has not finished. */
    record Claim(UUID workflowId, String triggerId, Instant fireAt, int version) {
    }

    /** One claimed tick. */
    record Fired(Instant fireAt, int workflowVersion, String outcome, int missedTicks, UUID runId, String error,
                 String claimedBy) {
    }
}
