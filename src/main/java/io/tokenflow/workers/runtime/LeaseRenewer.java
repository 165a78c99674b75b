package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * Keeps slow tokens from being taken over: every third of the claim timeout, the tokens each consumer has held for
 * longer than that get their idle time reset ({@code XCLAIM … JUSTID} to the same consumer). Only a consumer that
 * is really gone lets its tokens idle long enough to be claimed.
 */
final class LeaseRenewer {

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);

    private final List<TokenHolder> consumers;
    private final RedisClusterCommands<String, String> redis;
    private final long periodNanos;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "worker-leases");
        thread.setDaemon(true);
        return thread;
    });

    LeaseRenewer(List<TokenHolder> consumers, RedisClusterCommands<String, String> redis, Duration claimIdle) {
        this.consumers = List.copyOf(consumers);
        this.redis = redis;
        this.periodNanos = Math.max(1, claimIdle.toNanos() / 3);
    }

    void start() {
        scheduler.scheduleWithFixedDelay(this::renewAll, periodNanos, periodNanos, TimeUnit.NANOSECONDS);
    }

    void stop() {
        scheduler.shutdownNow();
    }

    private void renewAll() {
        for (TokenHolder consumer : consumers) {
            try {
                consumer.renewHeld(redis, periodNanos);
            } catch (RuntimeException e) {
                log.warn("Could not renew the tokens held by {}; another consumer may take them over", consumer.name(),
                        e);
            }
        }
    }
}
