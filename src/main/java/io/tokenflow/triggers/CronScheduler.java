package io.tokenflow.triggers;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;


/**
 * Fires the cron triggers of every workflow's newest version. Every {@code poll-interval} it looks for due ticks;
 * each tick is claimed in PostgreSQL ({@link TriggerFires#claim}) and only the instance whose claim went in starts
 * the run ({@link TickStarts}). Any number of instances may run it.
 */
@Component
class CronScheduler implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(CronScheduler.class);

    private final ActiveTriggers active;
    private final TriggerFires fires;
    private final TickStarts starts;
    private final TriggerSettings settings;
    private final Clock clock;
    private final String instance = "scheduler-" + UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, Instant> lastSeen = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;

    CronScheduler(ActiveTriggers active, TriggerFires fires, TickStarts starts, TriggerSettings settings, Clock clock) {
        this.active = active;
        this.fires = fires;
        this.starts = starts;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Takes over the claims whose start did not finish within the claim timeout, then claims and fires every tick due
     * now; returns how many runs this instance started.
     */
    int fireDue() {
        Instant now = clock.instant();
        int started = takeOverStaleClaims(now);
        for (ActiveTriggers.WorkflowTriggers workflow : active.all()) {
            for (Trigger trigger : workflow.triggers()) {
                if (trigger.isCron()) {
                    started += fireDue(workflow, trigger, now);
                }
            }
        }
        return started;
    }

    /**
     * A claim still {@code claimed} after the claim timeout lost its instance between the claim and the start: its
     * start is made again (the idempotency key finds the run should the first start have got through), when the tick
     * belongs to the trigger of the workflow's newest version; else it is marked failed.
     */
    private int takeOverStaleClaims(Instant now) {
        int started = 0;
        for (TriggerFires.Claim claim : fires.stale(now.minus(settings.claimTimeout()), 100)) {
            if (!fires.reclaim(claim, now.minus(settings.claimTimeout()), instance)) {
                continue;
            }
            ActiveTriggers.WorkflowTriggers workflow = active.find(claim.workflowId().toString()).orElse(null);
            Trigger trigger = workflow == null || workflow.version() != claim.version() ? null
                    : workflow.trigger(claim.triggerId()).filter(Trigger::isCron).orElse(null);
            if (trigger == null) {
                fires.failed(claim.workflowId(), claim.triggerId(), claim.fireAt(), "Expected the claim of version "
                        + claim.version() + " to be started again, but that version's trigger is no longer active");
            } else {
                log.info("Taking over the unfinished claim of trigger '" + trigger.id() + "' for " + claim.fireAt());
                started += starts.start(workflow, trigger, claim.fireAt()) ? 1 : 0;
            }
        }
        return started;
    }

    private int fireDue(ActiveTriggers.WorkflowTriggers workflow, Trigger trigger, Instant now) {
        CronSchedule schedule = CronSchedule.of(trigger);
        String key = workflow.workflowId() + "/" + trigger.id();
        Instant seen = lastSeen.get(key);
        if (seen != null && schedule.next(seen).map(next -> next.isAfter(now)).orElse(true)) {
            return 0;
        }
        Instant since = fires.last(workflow.workflowId(), trigger.id()).orElse(workflow.since());
        int started = 0;
        for (CronSchedule.Fire fire : schedule.due(since, now, settings.misfireThreshold())) {
            if (fires.claim(workflow.workflowId(), workflow.version(), trigger.id(), fire, instance) && fire.start()) {
                started += starts.start(workflow, trigger, fire.at()) ? 1 : 0;
            }
            since = fire.at();
        }
        lastSeen.put(key, since);
        return started;
    }

    /** This instance's name in {@code trigger_fires.claimed_by}. */
    String instance() {
        return instance;
    }

    @Override
    public void start() {
        if (!settings.enabled()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cron-triggers");
            thread.setDaemon(true);
            return thread;
        });
        long every = settings.pollInterval().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                fireDue();
            } catch (RuntimeException e) {
                log.warn("Firing cron triggers failed; trying again in " + every + " ms: " + e.getMessage());
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
