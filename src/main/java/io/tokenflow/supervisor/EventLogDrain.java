package io.tokenflow.supervisor;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Compensations;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Runs one {@link ShardEventLoop} per shard, each on its own thread and Redis connection, and tells the declared
 * compensations and every {@link RunEndingListener} of the runs each batch ended.
 */
@Component
class EventLogDrain implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(EventLogDrain.class);

    private final SupervisorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final EventsEntries entries;
    private final PoisonIsolation writer;
    private final Compensations compensations;
    private final MapResults mapResults;
    private final List<RunEndingListener> listeners;
    private final String consumerName = consumerName();
    private final List<ShardEventLoop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    EventLogDrain(SupervisorSettings settings, RedisConnections redis, RedisKeys keys, EventsEntries entries,
                  PoisonIsolation writer, Compensations compensations, MapResults mapResults,
                  List<RunEndingListener> listeners) {
        this.compensations = compensations;
        this.listeners = List.copyOf(listeners);
        this.mapResults = mapResults;
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.entries = entries;
        this.writer = writer;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || !threads.isEmpty()) {
            return;
        }
        for (int shard = 0; shard < keys.shards(); shard++) {
            ShardEvents events = new ShardEvents(redis.dedicated(settings.block()).sync(), keys, shard, consumerName,
                    settings);
            ShardEventLoop loop = new ShardEventLoop(events, entries, writer, settings,
                    this::ended, mapResults::complete);
            Thread thread = new Thread(loop, "supervisor-events-" + shard);
            thread.setDaemon(true);
            loops.add(loop);
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public synchronized void stop() {
        loops.forEach(ShardEventLoop::stop);
        for (Thread thread : threads) {
            try {
                thread.join(settings.block().toMillis() + 5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        loops.clear();
        threads.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return !threads.isEmpty();
    }

    private void ended(Map<UUID, RunStatus> endings) {
        compensations.startDeclared(endings);
        for (RunEndingListener listener : listeners) {
            try {
                listener.ended(endings);
            } catch (RuntimeException e) {
                log.error("Expected " + listener.getClass().getSimpleName() + " to take the endings of "
                        + endings.keySet() + ", but it failed", e);
            }
        }
    }

    /** This instance's name in the consumer group: unique per process and start. */
    private static String consumerName() {
        String process = ManagementFactory.getRuntimeMXBean().getName();
        return "supervisor-" + process + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
