package io.tokenflow.coordinator;

import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Lettuce connections for the hot path, from the client Spring Boot configured (same host, port, database, auth):
 * one shared, thread-safe connection for ordinary commands, and dedicated ones for blocking stream reads (a blocked
 * {@code XREADGROUP} would stall every other command on a shared connection).
 */
@Component
public class RedisConnections implements DisposableBean {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> shared;
    private final List<StatefulRedisConnection<String, String>> dedicated = new ArrayList<>();

    public RedisConnections(LettuceConnectionFactory factory) {
        if (!(factory.getRequiredNativeClient() instanceof RedisClient standalone)) {
            throw new IllegalStateException("Expected a standalone Redis client; Redis Cluster support comes with "
                    + "scale-out, but found " + factory.getRequiredNativeClient().getClass().getSimpleName());
        }
        this.client = standalone;
        this.shared = client.connect();
    }

    /** Commands on the shared connection; safe to use from any thread. */
    public RedisCommands<String, String> commands() {
        return shared.sync();
    }

    /** A connection of its own for one consumer thread; closed when the application stops (or by the caller). */
    public synchronized StatefulRedisConnection<String, String> dedicated() {
        StatefulRedisConnection<String, String> connection = client.connect();
        dedicated.add(connection);
        return connection;
    }

    @Override
    public synchronized void destroy() {
        dedicated.forEach(StatefulRedisConnection::close);
        shared.close();
    }
}
