package io.tokenflow.workers.runtime;

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
     * The consumers of a type's work, one per thread: {@code threads} of them reading every shard on a single Redis.
     * On a cluster, where a blocking read takes the streams of one slot only, they are spread over the shards, at
     * least one per shard ({@link RedisConnections#readers}).
     */
    List<TaskConsumer> create(String type, int threads) {
        List<String> perShard = IntStream.range(0, keys.shards()).mapToObj(shard -> keys.taskStream(type, shard))
                .toList();
        return connections.readers(perShard, threads).stream()
                .map(read -> create(type, read.stream().map(perShard::indexOf).toList())).toList();
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
