package io.tokenflow.coordinator;

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

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Releases retries whose backoff is over: every {@link #POLL_MS} ms, the due members of each shard's due-times set go
 * back to their node's task stream ({@code release-retry.lua}, which removes the member first, so a retry is released
 * once however many coordinators look). Due times live in Redis only, so an instance that stopped during a backoff
 * finds the retry where it left it; a retry comes at most a poll late.
 */
@Component
class DueRetries implements SmartLifecycle {

    /** How often the due-times sets are read: the precision of a backoff. */
    static final long POLL_MS = 100;
    private static final int BATCH = 500;
    private static final Log log = LogFactory.getLog(DueRetries.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final RunPlans plans;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    DueRetries(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, LuaScripts scripts, RunPlans plans,
               Clock clock) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.plans = plans;
        this.clock = clock;
    }

    /** Releases every retry due now; returns how many went back to their workers. */
    int releaseDue() {
        int released = 0;
        long now = clock.millis();
        for (int shard = 0; shard < keys.shards(); shard++) {
            List<String> due = redis.commands().zrangebyscore(keys.dueTimes(shard), Range.create(0L, (Long) now),
                    Limit.create(0, BATCH));
            for (String member : due) {
                released += release(shard, member, now) ? 1 : 0;
            }
        }
        return released;
    }

    private boolean release(int shard, String member, long now) {
        String[] parts = member.split(" ");
        UUID runId = UUID.fromString(parts[1]);
        Optional<IrNode> node = plans.find(runId).map(plan -> plan.workflow().node(parts[3]));
        if (node.isEmpty()) {
            // the run is gone from Redis, or its revision no longer has the node: nothing to send the task to
            redis.commands().zrem(keys.dueTimes(shard), member);
            return false;
        }
        RedisKeys.RunKeys run = keys.run(runId, shard);
        long reply = scripts.releaseRetry().run(redis.commands(), List.of(keys.dueTimes(shard), run.meta(),
                run.tokens(), run.retries(), keys.taskStream(node.get().worker(), shard)),
                List.of(member, parts[2], Long.toString(now)));
        return reply == 1;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tokenflow-due-retries");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                releaseDue();
            } catch (RuntimeException e) {
                log.warn("Releasing due retries failed; trying again in " + POLL_MS + " ms", e);
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
