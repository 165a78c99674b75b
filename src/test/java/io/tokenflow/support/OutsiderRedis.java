package io.tokenflow.support;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.springframework.core.env.Environment;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * A Redis connection of the test's own, as a worker in another process would open it (not the application's
 * connections): to the Redis Cluster of {@code spring.data.redis.cluster.nodes} when set, else to the single Redis of
 * {@code spring.data.redis.host}, {@code port} and {@code database}.
 */
public final class OutsiderRedis implements AutoCloseable {

    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> commands;

    private OutsiderRedis(AbstractRedisClient client, StatefulConnection<String, String> connection,
                          RedisClusterCommands<String, String> commands) {
        this.client = client;
        this.connection = connection;
        this.commands = commands;
    }

    public static OutsiderRedis connect(Environment environment) {
        return connect(environment, null, null);
    }

    /** Connects as a Redis ACL user ({@code null}: the default user). */
    public static OutsiderRedis connect(Environment environment, String user, String password) {
        List<RedisURI> uris = nodes(environment, user, password);
        if (clustered(environment)) {
            RedisClusterClient cluster = RedisClusterClient.create(uris);
            StatefulRedisClusterConnection<String, String> connection = cluster.connect();
            return new OutsiderRedis(cluster, connection, connection.sync());
        }
        RedisClient single = RedisClient.create(uris.get(0));
        StatefulRedisConnection<String, String> connection = single.connect();
        return new OutsiderRedis(single, connection, connection.sync());
    }

    /**
     * Runs a server command on every Redis node the application uses (each master of a cluster): for what Redis keeps
     * per node, such as ACL users.
     */
    public static void onEveryNode(Environment environment, Consumer<RedisCommands<String, String>> command) {
        for (RedisURI uri : nodes(environment, null, null)) {
            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                command.accept(connection.sync());
            } finally {
                client.shutdown();
            }
        }
    }

    private static boolean clustered(Environment environment) {
        String nodes = environment.getProperty("spring.data.redis.cluster.nodes");
        return nodes != null && !nodes.isBlank();
    }

    private static List<RedisURI> nodes(Environment environment, String user, String password) {
        List<RedisURI.Builder> nodes;
        if (clustered(environment)) {
            nodes = Arrays.stream(environment.getProperty("spring.data.redis.cluster.nodes").split(","))
                    .map(String::trim).map(node -> RedisURI.Builder.redis(node.substring(0, node.lastIndexOf(':')),
                            Integer.parseInt(node.substring(node.lastIndexOf(':') + 1)))).toList();
        } else {
            nodes = List.of(RedisURI.Builder.redis(environment.getProperty("spring.data.redis.host"),
                            environment.getProperty("spring.data.redis.port", Integer.class))
                    .withDatabase(environment.getProperty("spring.data.redis.database", Integer.class, 0)));
        }
        return nodes.stream().map(node -> user == null ? node.build()
                : node.withAuthentication(user, password.toCharArray()).build()).toList();
    }

    /**
     * The completions stream a worker answers a token on, as docs/worker-protocol.md says: the one of the token's
     * shard ({@code wf.tasks.<type>:{N}} → {@code wf.completions:{N}}).
     */
    public static String completionsStreamOf(StreamMessage<String, String> token) {
        return "wf.completions:" + token.getStream().substring(token.getStream().lastIndexOf(':') + 1);
    }

    public RedisClusterCommands<String, String> commands() {
        return commands;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
