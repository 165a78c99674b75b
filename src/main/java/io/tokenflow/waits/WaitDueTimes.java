package io.tokenflow.waits;

import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.CoordinatorSettings;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Acts on the wait due times of every shard, every {@link #POLL_MS} ms: a timer that is due fires, a signal wait past
 * its timeout times out ({@link HeldTokens}). Whoever takes a wait removes its member, so it is acted on once however
 * many instances look, and an instance that stopped finds the due times in Redis where it left them: a timer whose
 * time passed while no instance ran fires as soon as one does. Runs with the coordinator role.
 */
@Component
class WaitDueTimes implements SmartLifecycle {

    /** How often the due times are read: the precision of a timer. */
    static final long POLL_MS = 100;
    private static final int BATCH = 500;
    private static final Log log = LogFactory.getLog(WaitDueTimes.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final HeldTokens held;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    WaitDueTimes(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, HeldTokens held, Clock clock) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.held = held;
        this.clock = clock;
    }

    /** Acts on every wait due now; returns how many it took out. */
    int actOnDue() {
        int taken = 0;
        for (int shard = 0; shard < keys.shards(); shard++) {
            List<String> due = redis.commands().zrangebyscore(keys.waitDueTimes(shard),
                    Range.create(0L, (Long) clock.millis()), Limit.create(0, BATCH));
            for (String member : due) {
                taken += actOn(shard, member) ? 1 : 0;
            }
        }
        return taken;
    }

    private boolean actOn(int shard, String member) {
        String[] parts = member.split(" ", 2);
        UUID run = UUID.fromString(parts[0]);
        Optional<Wait> wait = held.find(run, parts[1]);
        if (wait.isEmpty()) {
            held.forget(shard, member);
            return false;
        }
        return wait.get().isSignal() ? held.timeOut(run, parts[1], wait.get()) : held.fire(run, parts[1], wait.get());
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tokenflow-wait-due-times");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                actOnDue();
            } catch (RuntimeException e) {
                log.warn("Acting on wait due times failed; trying again in " + POLL_MS + " ms", e);
            }
        }, POLL_MS, POLL_MS, TimeUnit.MILLISECONDS);
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
