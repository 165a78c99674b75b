package io.tokenflow.supervisor;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.Compensations;
import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Writes the event log of the shards this supervisor holds the lease of ({@link ShardLeases}): one
 * {@link ShardEventLoop} per shard held, each on its own thread and Redis connection. A keeper (a scheduled thread) keeps the
 * leases on every heartbeat, stops the loop of a shard whose lease it lost, gives up shards beyond its share (another
 * supervisor started) and takes free ones up to it (one stopped or died). A loop started on a shard takes over at
 * once the entries a former holder read and left unacknowledged. Tells the declared compensations and every
 * {@link RunEndingListener} of the runs each batch ended.
 */
@Component
class EventLogDrain implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(EventLogDrain.class);

    private final SupervisorSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final EventsEntries entries;
    private final PoisonIsolation writer;
    private final Compensations compensations;
    private final MapResults mapResults;
    private final HopTally hops;
    private final RunMetrics metrics;
    private final RunTraces traces;
    private final RunLabels labels;
    private final List<RunEndingListener> listeners;
    private final Clock clock;
    private final String consumerName = consumerName();
    private final Map<Integer, Held> held = new TreeMap<>();
    private ShardLeases leases;
    private ScheduledExecutorService keeper;
    private volatile boolean running;

    /** A shard this supervisor holds, with the loop writing its event log and that loop's thread. */
    private record Held(ShardEventLoop loop, Thread thread, DedicatedConnection connection) {
    }

    EventLogDrain(SupervisorSettings settings, RedisConnections redis, RedisKeys keys, LuaScripts scripts,
                  EventsEntries entries, PoisonIsolation writer, Compensations compensations, MapResults mapResults,
                  HopTally hops, RunMetrics metrics, RunTraces traces,
                  RunLabels labels, List<RunEndingListener> listeners, Clock clock) {
        this.labels = labels;
        this.hops = hops;
        this.metrics = metrics;
        this.traces = traces;
        this.compensations = compensations;
        this.listeners = List.copyOf(listeners);
        this.mapResults = mapResults;
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.entries = entries;
        this.writer = writer;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        if (!settings.enabled() || keeper != null) {
            return;
        }
        leases = new ShardLeases(redis, keys, scripts, consumerName, settings.shardLease(), clock);
        running = true;
        rebalance();
        keeper = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "supervisor-shards");
            thread.setDaemon(true);
            return thread;
        });
        long heartbeat = leases.heartbeat().toMillis();
        keeper.scheduleWithFixedDelay(() -> {
            try {
                rebalance();
            } catch (RuntimeException e) {
                log.warn("Could not keep the shard leases of supervisor " + consumerName + "; trying again in "
                        + leases.heartbeat(), e);
            }
        }, heartbeat, heartbeat, TimeUnit.MILLISECONDS);
    }

    /** Keeps the leases held, gives up what is beyond the share and takes free shards up to it. */
    private synchronized void rebalance() {
        if (!running) {
            return;
        }
        int share = leases.share();
        for (Integer shard : Set.copyOf(held.keySet())) {
            if (!leases.hold(shard)) {
                log.warn("Supervisor " + consumerName + " lost the lease of shard " + shard + "; stops writing it");
                release(shard, false);
            }
        }
        while (held.size() > share) {
            int last = ((TreeMap<Integer, Held>) held).lastKey();
            log.info("Supervisor " + consumerName + " gives shard " + last + " up (its share is " + share + ")");
            release(last, true);
        }
        for (int shard = 0; shard < keys.shards() && held.size() < share; shard++) {
            if (!held.containsKey(shard) && leases.hold(shard)) {
                write(shard);
            }
        }
    }

    private void write(int shard) {
        DedicatedConnection connection = redis.dedicated(settings.block());
        ShardEvents events = new ShardEvents(connection.sync(), keys, shard, consumerName, settings,
                scripts.forgetRuns());
        ShardEventLoop loop = new ShardEventLoop(events, entries, writer, settings, this::ended, mapResults::complete,
                this::logged);
        Thread thread = new Thread(loop, "supervisor-events-" + shard);
        thread.setDaemon(true);
        held.put(shard, new Held(loop, thread, connection));
        thread.start();
        log.info("Supervisor " + consumerName + " writes the event log of shard " + shard);
    }

    /** Stops writing the shard; {@code drop}: gives its lease up too (else it was lost already). */
    private void release(int shard, boolean drop) {
        Held stopping = held.remove(shard);
        stopping.loop().stop();
        try {
            stopping.thread().join(settings.block().toMillis() + 5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopping.connection().isOpen()) {
            stopping.connection().close();
        }
        if (drop) {
            leases.drop(shard);
        }
    }

    /** Counts what a batch just written holds (the tenants' hops, the metrics) and sends the spans it ends. */
    private void logged(List<EventsEntry> logged) {
        hops.count(logged);
        metrics.record(logged);
        traces.record(logged);
        for (EventsEntry entry : logged) {
            if (entry.events().stream().anyMatch(RunEnding.class::isInstance)) {
                labels.forget(entry.run());
            }
        }
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

    @Override
    public void stop() {
        ScheduledExecutorService stopping;
        synchronized (this) {
            running = false;
            stopping = keeper;
            keeper = null;
        }
        if (stopping == null) {
            return;
        }
        stopping.shutdown();
        try {
            stopping.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            for (Integer shard : new ArrayList<>(held.keySet())) {
                try {
                    release(shard, true);
                } catch (RuntimeException e) {
                    log.warn("Could not give the lease of shard " + shard + " up; it runs out on its own", e);
                }
            }
            try {
                leases.leave();
            } catch (RuntimeException e) {
                log.warn("Could not leave the supervisors alive; this one is forgotten once its heartbeat is old", e);
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return keeper != null;
    }

    /** The shards whose event log this supervisor writes now (whose lease it holds). */
    synchronized Set<Integer> heldShards() {
        return Set.copyOf(held.keySet());
    }

    /** The shards this supervisor writes the event log of now. */
    synchronized Set<Integer> shardsHeld() {
        return Set.copyOf(held.keySet());
    }

    /** This instance's name in the consumer group: unique per process and start. */
    private static String consumerName() {
        String process = ManagementFactory.getRuntimeMXBean().getName();
        return "supervisor-" + process + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
