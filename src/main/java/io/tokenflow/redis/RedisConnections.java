package io.tokenflow.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Lettuce connections for the hot path, from the client Spring Boot configured (same host, port, database, auth):
 * one shared, thread-safe connection for ordinary commands, and dedicated ones for blocking stream reads (a blocked
 * {@code XREADGROUP} would stall every other command on a shared connection). The connection factory is a lifecycle
 * bean that replaces its client when stopped and started again, so connections always come from its current client.
 * Strings travel as UTF-8 ({@link Utf8Codec}).
 */
@Component
public class RedisConnections implements DisposableBean {

    private final LettuceConnectionFactory factory;
    private final List<StatefulRedisConnection<String, String>> dedicated = new ArrayList<>();
    private RedisClient client;
    private StatefulRedisConnection<String, String> shared;

    public RedisConnections(LettuceConnectionFactory factory) {
        this.factory = factory;
    }

    /** Commands on the shared connection; safe to use from any thread. */
    public RedisCommands<String, String> commands() {
        return shared().sync();
    }

    /** A connection of its own for one consumer thread; closed when the application stops (or by the caller). */
    public synchronized StatefulRedisConnection<String, String> dedicated() {
        StatefulRedisConnection<String, String> connection = currentClient().connect(Utf8Codec.INSTANCE);
        dedicated.add(connection);
        return connection;
    }

    /**
     * A connection of its own for a consumer thread whose reads block up to {@code block}: its commands time out
     * {@code spring.data.redis.timeout} after that (a read waiting its full block time is no outage).
     */
    public StatefulRedisConnection<String, String> dedicated(Duration block) {
        StatefulRedisConnection<String, String> connection = dedicated();
        connection.setTimeout(Duration.ofMillis(factory.getTimeout()).plus(block));
        return connection;
    }

    /** A publish/subscribe connection of its own (a subscribed connection takes no other commands). */
    public synchronized StatefulRedisPubSubConnection<String, String> pubSub() {
        return currentClient().connectPubSub(Utf8Codec.INSTANCE);
    }

    private synchronized StatefulRedisConnection<String, String> shared() {
        RedisClient current = currentClient();
        if (shared == null || !shared.isOpen() || current != client) {
            shared = current.connect(Utf8Codec.INSTANCE);
            client = current;
        }
        return shared;
    }

    private RedisClient currentClient() {
        if (!(factory.getRequiredNativeClient() instanceof RedisClient standalone)) {
            throw new IllegalStateException("Expected a standalone Redis client; Redis Cluster support comes with "
                    + "scale-out, but found " + factory.getRequiredNativeClient().getClass().getSimpleName());
        }
        return standalone;
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

    private static void closeIfOpen(StatefulRedisConnection<String, String> connection) {
        if (connection.isOpen()) {
            connection.close();
        }
    }
}
