package io.tokenflow.supervisor;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs the timeout detector, the counter snapshots and the lost-run sweep at their intervals, on one thread of their
 * own, each over the shards whose event log this supervisor writes ({@link EventLogDrain#heldShards}): supervisors
 * split these checks as they split the shards, so no run is looked at by two (a run failed twice for idleness, or
 * rebuilt by two at once), and the work of each falls as supervisors are added.
 */
@Component
class SupervisorTimers implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(SupervisorTimers.class);

    private final SupervisorSettings settings;
    private final TimeoutDetector timeouts;
    private final CounterSnapshots snapshots;
    private final LostRunSweep lostRuns;
    private final EventLogDrain drain;
    private ScheduledExecutorService scheduler;

    SupervisorTimers(SupervisorSettings settings, TimeoutDetector timeouts, CounterSnapshots snapshots,
                     LostRunSweep lostRuns, EventLogDrain drain) {
        this.drain = drain;
        this.lostRuns = lostRuns;
        this.settings = settings;
        this.timeouts = timeouts;
        this.snapshots = snapshots;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "supervisor-timers");
            thread.setDaemon(true);
            return thread;
        });
        every(settings.timeoutCheckInterval().toMillis(), "Looking for idle runs",
                () -> timeouts.check(drain.heldShards()));
        every(settings.snapshotInterval().toMillis(), "Snapshotting run counters",
                () -> snapshots.take(drain.heldShards()));
        every(settings.recoveryCheckInterval().toMillis(), "Looking for runs whose Redis state was lost",
                () -> lostRuns.check(drain.heldShards()));
    }

    private void every(long millis, String what, Runnable task) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn(what + " failed; trying again in " + millis + " ms", e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
