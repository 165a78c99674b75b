package io.tokenflow.workers.runtime;

import java.util.List;

import org.springframework.stereotype.Component;

import io.lettuce.core.api.StatefulRedisConnection;
import io.tokenflow.coordinator.LocalCompletions;
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

    TaskConsumer create(String type) {
        String name = ConsumerNames.next(type);
        StatefulRedisConnection<String, String> connection = connections.dedicated(settings.block());
        TaskStreams streams = new TaskStreams(connection, keys, local, type, name);
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
