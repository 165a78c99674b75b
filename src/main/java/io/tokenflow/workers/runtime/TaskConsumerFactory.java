package io.tokenflow.workers.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.LocalCompletions;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.signing.EngineSignals;
import io.tokenflow.workers.WorkerSettings;

/** Builds a worker type's threads, each with a unique consumer name and a Redis connection of its own. */
@Component
class TaskConsumerFactory {

    private final RedisConnections connections;
    private final RedisKeys keys;
    private final TaskExecutor executor;
    private final WorkerSettings settings;
    private final LocalCompletions local;
    private final PoisonedTasks poisoned;
    private final EngineSignals signals;

    TaskConsumerFactory(RedisConnections connections, RedisKeys keys, TaskExecutor executor, WorkerSettings settings,
                        LocalCompletions local, PoisonedTasks poisoned, EngineSignals signals) {
        this.signals = signals;
        this.poisoned = poisoned;
        this.connections = connections;
        this.local = local;
        this.keys = keys;
        this.executor = executor;
        this.settings = settings;
    }

    /**
     * A type's threads. On a single Redis, {@code concurrency} consumers each read every shard (one command) and run
     * what they read. On a cluster, where one read takes one shard's stream, a consumer per shard reads and hands its
     * batches to a pool of {@code concurrency} running threads ({@link TaskPool}).
     */
    TypeWorkers create(String type, int concurrency) {
        List<Integer> all = IntStream.range(0, keys.shards()).boxed().toList();
        if (!connections.clustered()) {
            List<TaskConsumer> consumers = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                String name = ConsumerNames.next(type);
                DedicatedConnection connection = connections.dedicated(settings.block());
                TaskStreams streams = new TaskStreams(connection, keys, local, signals, type, name, all);
                HeldTokens held = new HeldTokens();
                BatchProcessor batches = new BatchProcessor(streams, executor, poisoned, type, name, held);
                consumers.add(new TaskConsumer(connection, streams, batches::process, held, settings, name));
            }
            return new TypeWorkers(consumers, null, List.of());
        }
        TaskPool pool = new TaskPool();
        List<TaskConsumer> readers = new ArrayList<>();
        for (int shard : all) {
            String name = ConsumerNames.next(type);
            DedicatedConnection connection = connections.dedicated(settings.block());
            TaskStreams streams = new TaskStreams(connection, keys, local, signals, type, name, List.of(shard));
            HeldTokens held = new HeldTokens();
            TaskConsumer.BatchSink handOver = batch -> pool.handOver(batch, held, batch.stream()
                    .map(message -> new TaskEntry(message.getStream(), shard, message.getId(), type,
                            message.getBody())).toList());
            readers.add(new TaskConsumer(connection, streams, handOver, held, settings, name));
        }
        List<PoolRunner> runners = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            String name = ConsumerNames.next(type);
            DedicatedConnection connection = connections.dedicated();
            TaskStreams streams = new TaskStreams(connection, keys, local, signals, type, name, all);
            HeldTokens held = new HeldTokens();
            BatchProcessor batches = new BatchProcessor(streams, executor, poisoned, type, name, held);
            runners.add(new PoolRunner(connection, streams, batches, held, pool, settings.block(), name));
        }
        return new TypeWorkers(readers, pool, runners);
    }

    /**
     * A type's consumers (they read, and on a single Redis run what they read), and on a cluster the pool they hand
     * their batches to and its running threads.
     */
    record TypeWorkers(List<TaskConsumer> consumers, TaskPool pool, List<PoolRunner> runners) {

        List<TokenHolder> holders() {
            List<TokenHolder> all = new ArrayList<>(consumers);
            all.addAll(runners);
            return all;
        }
    }

    /** Reports the start of the given consumers' slow work, on the shared connection. */
    StartAnnouncer startAnnouncer(List<TokenHolder> consumers) {
        return new StartAnnouncer(consumers, signals, settings.announceStartAfter());
    }

    /** Renews the tokens the given consumers hold, on the shared connection. */
    LeaseRenewer leaseRenewer(List<TokenHolder> consumers) {
        return new LeaseRenewer(consumers, connections.commands(), settings.claimIdle());
    }
}
