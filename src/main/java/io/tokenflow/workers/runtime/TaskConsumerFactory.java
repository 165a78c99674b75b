package io.tokenflow.workers.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.LocalCompletions;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerSettings;

/** Builds consumers, each with a unique name and a Redis connection of its own. */
@Component
class TaskConsumerFactory {

    private final RedisConnections connections;
    private final RedisKeys keys;
    private final TaskExecutor executor;
    private final WorkerSettings settings;
    private final LocalCompletions local;
    private final PoisonedTasks poisoned;

    TaskConsumerFactory(RedisConnections connections, RedisKeys keys, TaskExecutor executor, WorkerSettings settings,
                        LocalCompletions local, PoisonedTasks poisoned) {
        this.poisoned = poisoned;
        this.connections = connections;
        this.local = local;
        this.keys = keys;
        this.executor = executor;
        this.settings = settings;
    }

    /**
     * The consumers of a type's work: {@code threads} of them reading every shard on a single Redis. On a cluster,
     * where a blocking read takes one shard's stream, each of the {@code threads} is a consumer per shard (so
     * threads × shards), not {@code threads} spread over the shards as the engine's own consumers are
     * ({@link RedisConnections#readers}): a worker runs its task on the reading thread, so a shard read by fewer
     * threads than the concurrency queued its tasks behind a slow one while other shards' threads idled (four 30 s
     * sleeps on four shards, two of them on one shard, ran one after the other: {@code CancellationIntegrationTests}
     * on the cluster).
     */
    List<TaskConsumer> create(String type, int threads) {
        List<String> perShard = IntStream.range(0, keys.shards()).mapToObj(shard -> keys.taskStream(type, shard))
                .toList();
        List<TaskConsumer> consumers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            for (List<String> read : connections.readers(perShard, 1)) {
                consumers.add(create(type, read.stream().map(perShard::indexOf).toList()));
            }
        }
        return consumers;
    }

    private TaskConsumer create(String type, List<Integer> shards) {
        String name = ConsumerNames.next(type);
        DedicatedConnection connection = connections.dedicated(settings.block());
        TaskStreams streams = new TaskStreams(connection, keys, local, type, name, shards);
        HeldTokens held = new HeldTokens();
        BatchProcessor batches = new BatchProcessor(streams, executor, poisoned, type, name, held);
        return new TaskConsumer(connection, streams, batches, held, settings, name);
    }

    /** Reports the start of the given consumers' slow work, on the shared connection. */
    StartAnnouncer startAnnouncer(List<TaskConsumer> consumers) {
        return new StartAnnouncer(consumers, connections.commands(), keys, settings.announceStartAfter());
    }

    /** Renews the tokens the given consumers hold, on the shared connection. */
    LeaseRenewer leaseRenewer(List<TaskConsumer> consumers) {
        return new LeaseRenewer(consumers, connections.commands(), settings.claimIdle());
    }
}
