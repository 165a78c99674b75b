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

import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.runs.StartedRun;

/**
 * Fires the cron triggers of every workflow's newest version. Every {@code poll-interval} it looks for due ticks;
 * each tick is claimed in PostgreSQL ({@link TriggerFires#claim}) and only the instance whose claim went in starts
 * the run, with the idempotency key {@code trigger:<workflow>:<trigger>:<tick>}. Any number of instances may run it.
 */
@Component
class CronScheduler implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(CronScheduler.class);

    private final ActiveTriggers active;
    private final TriggerFires fires;
    private final StartRun starting;
    private final TriggerSettings settings;
    private final Clock clock;
    private final String instance = "scheduler-" + UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, Instant> lastSeen = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;

    CronScheduler(ActiveTriggers active, TriggerFires fires, StartRun starting, TriggerSettings settings, Clock clock) {
        this.active = active;
        this.fires = fires;
        this.starting = starting;
        this.settings = settings;
        this.clock = clock;
    }

    /** Claims and fires every tick due now; returns how many runs this instance started. */
    int fireDue() {
        int started = 0;
        Instant now = clock.instant();
        for (ActiveTriggers.WorkflowTriggers workflow : active.all()) {
            for (Trigger trigger : workflow.triggers()) {
                if (trigger.isCron()) {
                    started += fireDue(workflow, trigger, now);
                }
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
                started += start(workflow, trigger, fire.at()) ? 1 : 0;
            }
            since = fire.at();
        }
        lastSeen.put(key, since);
        return started;
    }

    private boolean start(ActiveTriggers.WorkflowTriggers workflow, Trigger trigger, Instant at) {
        String idempotencyKey = "trigger:" + workflow.workflowId() + ":" + trigger.id() + ":" + at;
        try {
            StartedRun run = starting.start(new StartRunCommand(workflow.workflowId().toString(), null,
                    workflow.version(), trigger.inputs(), idempotencyKey), "trigger:" + trigger.id());
            fires.started(workflow.workflowId(), trigger.id(), at, run.id());
            return true;
        } catch (RuntimeException e) {
            log.warn("Trigger '" + trigger.id() + "' of workflow '" + workflow.name() + "' could not start its run for "
                    + at + ": " + e.getMessage());
            fires.failed(workflow.workflowId(), trigger.id(), at, String.valueOf(e.getMessage()));
            return false;
        }
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
