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
 * Acts on the due times of every shard, every {@link #POLL_MS} ms: a retry whose backoff is over goes back to its
 * node's task stream ({@code release-retry.lua}); a task past its node's {@code timeout_s} fails as transient, and a
 * run past its deadline ends ({@link Timeouts}); then other features' {@link DueWork} (timers) is done. Each member
 * is removed by whoever acts on it, so it is acted on once however many coordinators look. Due times live in Redis
 * only, so an instance that stopped finds them where it left them; a due time is acted on at most a poll late.
 */
@Component
class DueTimes implements SmartLifecycle {

    /** How often the due-times sets are read: the precision of a backoff. */
    static final long POLL_MS = 100;
    private static final int BATCH = 500;
    private static final Log log = LogFactory.getLog(DueTimes.class);

    private final CoordinatorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final RunPlans plans;
    private final Timeouts timeouts;
    private final Clock clock;
    private final List<DueWork> others;
    private ScheduledExecutorService scheduler;

    DueTimes(CoordinatorSettings settings, RedisConnections redis, RedisKeys keys, LuaScripts scripts, RunPlans plans,
             Timeouts timeouts, Clock clock, List<DueWork> others) {
        this.timeouts = timeouts;
        this.others = List.copyOf(others);
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.plans = plans;
        this.clock = clock;
    }

    /** Acts on every due time due now; returns how many retries went back to their workers. */
    int releaseDue() {
        int released = 0;
        long now = clock.millis();
        for (int shard = 0; shard < keys.shards(); shard++) {
            List<String> due = redis.commands().zrangebyscore(keys.dueTimes(shard), Range.create(0L, (Long) now),
                    Limit.create(0, BATCH));
            for (String member : due) {
                DueMember parsed = DueMember.parse(member);
                switch (parsed.kind()) {
                    case DueMember.TIMEOUT -> timeouts.fire(shard, member, parsed);
                    case DueMember.DEADLINE -> timeouts.endRun(shard, member, parsed.run());
                    default -> released += release(shard, member, parsed, now) ? 1 : 0;
                }
            }
        }
        return released;
    }

    private boolean release(int shard, String member, DueMember retry, long now) {
        UUID runId = retry.run();
        Optional<IrNode> node = plans.find(runId).map(plan -> plan.workflow().node(retry.node()));
        if (node.isEmpty()) {
            // the run is gone from Redis, or its revision no longer has the node: nothing to send the task to
            redis.commands().zrem(keys.dueTimes(shard), member);
            return false;
        }
        RedisKeys.RunKeys run = keys.run(runId, shard);
        long reply = scripts.releaseRetry().run(redis.commands(), List.of(keys.dueTimes(shard), run.meta(),
                run.tokens(), run.retries(), keys.taskStream(node.get().taskWorker(), shard)),
                List.of(member, retry.token(), Long.toString(now),
                        node.get().timeoutMs() == null ? "" : node.get().timeoutMs().toString()));
        return reply == 1;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "tokenflow-due-times");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                releaseDue();
            } catch (RuntimeException e) {
                log.warn("Acting on due times failed; trying again in " + POLL_MS + " ms", e);
            }
            for (DueWork work : others) {
                try {
                    work.actOnDue();
                } catch (RuntimeException e) {
                    log.warn("Acting on " + work.getClass().getSimpleName() + "'s due times failed; trying again in "
                            + POLL_MS + " ms", e);
                }
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
