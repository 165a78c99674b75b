package io.tokenflow.triggers;

import java.time.Clock;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.web.NotFoundException;

/** The active triggers of a workflow as the API and the workflow page show them: next and last fire, webhook URL. */
@Component
class TriggerViews {

    private final ActiveTriggers active;
    private final TriggerFires fires;
    private final TriggerSecrets secrets;
    private final Clock clock;

    TriggerViews(ActiveTriggers active, TriggerFires fires, TriggerSecrets secrets, Clock clock) {
        this.active = active;
        this.fires = fires;
        this.secrets = secrets;
        this.clock = clock;
    }

    ActiveTriggers.WorkflowTriggers workflow(String reference) {
        return active.find(reference).orElseThrow(() -> new NotFoundException("Expected a workflow with the id or "
                + "name '" + reference + "', but there is none"));
    }

    /** The triggers of the workflow's newest version; webhook URLs start with {@code baseUrl}. */
    List<TriggerView> list(ActiveTriggers.WorkflowTriggers workflow, String baseUrl) {
        Instant now = clock.instant();
        return workflow.triggers().stream().map(trigger -> trigger.isCron()
                ? cron(workflow.workflowId(), workflow.version(), trigger, now)
                : webhook(workflow.workflowId(), workflow.version(), trigger, baseUrl)).toList();
    }

    private TriggerView cron(UUID workflowId, int version, Trigger trigger, Instant now) {
        ZonedDateTime next = CronSchedule.of(trigger).next(now).map(at -> at.atZone(trigger.zone())).orElse(null);
        return new TriggerView(trigger.id(), trigger.type(), version, trigger.cron(), trigger.zone().getId(),
                trigger.missed(), next == null ? null : next.toInstant(), next == null ? null : next.toOffsetDateTime()
                .toString(), last(workflowId, trigger), null, null, false);
    }

    private TriggerView webhook(UUID workflowId, int version, Trigger trigger, String baseUrl) {
        return new TriggerView(trigger.id(), trigger.type(), version, null, null, null, null, null,
                last(workflowId, trigger), baseUrl + "/hooks/" + workflowId + "/" + trigger.id(), trigger.auth(),
                secrets.find(workflowId, trigger.id()).filter(secret -> secret.auth().equals(trigger.auth()))
                        .isPresent());
    }

    private TriggerFires.Fired last(UUID workflowId, Trigger trigger) {
        return trigger.isCron() ? fires.recent(workflowId, trigger.id(), 1).stream().findFirst().orElse(null) : null;
    }

    /**
     * One active trigger.
     *
     * @param version       the workflow version it starts (the newest)
     * @param nextFireAt    the next tick, UTC (cron)
     * @param nextFireLocal the next tick in the trigger's time zone, with its offset (cron)
     * @param lastFire      the newest tick claimed (cron)
     * @param webhookUrl    where to POST (webhook)
     * @param secretIssued  whether a secret for its auth was issued (webhook): without one every call is refused
     */
    record TriggerView(String id, String type, int version, String cron, String timeZone, String missed,
                       Instant nextFireAt, String nextFireLocal, TriggerFires.Fired lastFire, String webhookUrl,
                       String auth, boolean secretIssued) {
    }
}
