package io.tokenflow.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Lettuce connections for the hot path, from the client Spring Boot configured (same host, port, database, auth; a
 * {@link RedisClusterClient} when {@code spring.data.redis.cluster.nodes} is set): one shared, thread-safe connection
 * for ordinary commands, and dedicated ones for blocking stream reads (a blocked {@code XREADGROUP} would stall every
 * other command on a shared connection). On a cluster, each command goes to the node owning its keys' slot; every
 * key Tokenflow builds carries its shard's hash tag ({@link RedisKeys}), so no command or script crosses slots. The
 * connection factory is a lifecycle bean that replaces its client when stopped and started again, so connections
 * always come from its current client. Strings travel as UTF-8 ({@link Utf8Codec}).
 */
@Component
public class RedisConnections implements DisposableBean {

    private final LettuceConnectionFactory factory;
    private final List<DedicatedConnection> dedicated = new ArrayList<>();
    private AbstractRedisClient client;
    private DedicatedConnection shared;

    public RedisConnections(LettuceConnectionFactory factory) {
        this.factory = factory;
    }

    /** Commands on the shared connection; safe to use from any thread. */
    public RedisClusterCommands<String, String> commands() {
        return shared().sync();
    }

    /** Whether Redis is a cluster: then only keys of one slot (one shard) may go into one command. */
    public boolean clustered() {
        return factory.getRequiredNativeClient() instanceof RedisClusterClient;
    }

    /**
     * What each of a consumer's reading threads reads of a list of streams, one stream per shard, when
     * {@code threads} threads were asked for (the engine's own consumers, whose handlers are quick; workers, which run
     * their tasks on the reading thread, take a consumer per shard for each thread instead). On a single Redis each of them reads all the streams in one command. On
     * a cluster, where one command's keys must share a slot, one command reads one shard: the threads are spread over
     * the shards, thread {@code i} reading shard {@code i mod shards}, and as every shard needs a reader there is one
     * per shard at least. (A thread per shard for each of the {@code threads} instead multiplied the readers by the
     * shards, and with them the reads that come back with small batches: the CPU per hop grew by a sixth from one
     * shard to four.)
     *
     * @return the streams of each thread to start, in order
     */
    public List<List<String>> readers(List<String> streamPerShard, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("Expected at least one reading thread, but got " + threads);
        }
        List<String> all = List.copyOf(streamPerShard);
        if (!clustered()) {
            return Collections.nCopies(threads, all);
        }
        return IntStream.range(0, Math.max(threads, all.size())).mapToObj(i -> List.of(all.get(i % all.size())))
                .toList();
    }

    /** A connection of its own for one consumer thread; closed when the application stops (or by the caller). */
    public synchronized DedicatedConnection dedicated() {
        DedicatedConnection connection = connect(currentClient());
        dedicated.add(connection);
        return connection;
    }

    /**
     * A connection of its own for a consumer thread whose reads block up to {@code block}: its commands time out
     * {@code spring.data.redis.timeout} after that (a read waiting its full block time is no outage).
     */
    public DedicatedConnection dedicated(Duration block) {
        DedicatedConnection connection = dedicated();
        connection.setTimeout(Duration.ofMillis(factory.getTimeout()).plus(block));
        return connection;
    }

    /**
     * A publish/subscribe connection of its own (a subscribed connection takes no other commands). On a cluster a
     * message published on any node reaches the subscribers of every node.
     */
    public synchronized StatefulRedisPubSubConnection<String, String> pubSub() {
        AbstractRedisClient current = currentClient();
        return current instanceof RedisClusterClient cluster ? cluster.connectPubSub(Utf8Codec.INSTANCE)
                : ((RedisClient) current).connectPubSub(Utf8Codec.INSTANCE);
    }

    private synchronized DedicatedConnection shared() {
        AbstractRedisClient current = currentClient();
        if (shared == null || !shared.isOpen() || current != client) {
            shared = connect(current);
            client = current;
        }
        return shared;
    }

    private static DedicatedConnection connect(AbstractRedisClient client) {
        if (client instanceof RedisClusterClient cluster) {
            return DedicatedConnection.of(cluster.connect(Utf8Codec.INSTANCE));
        }
        return DedicatedConnection.of(((RedisClient) client).connect(Utf8Codec.INSTANCE));
    }

    private AbstractRedisClient currentClient() {
        return factory.getRequiredNativeClient();
    }

    /**
     * Closes the connections still open: the connection factory stops (and shuts its client and every connection of
     * it down) before this bean is destroyed, and closing a closed connection logs a warning.
     */
    @Override
    public synchronized void destroy() {
        dedicated.forEach(RedisConnections::closeIfOpen);
        dedicated.clear();
        if (shared != null) {
            closeIfOpen(shared);
        }
    }

    private static void closeIfOpen(DedicatedConnection connection) {
        if (connection.isOpen()) {
            connection.close();
        }
    }
}
