package io.tokenflow.redis;

import java.time.Duration;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * A connection of one consumer thread's own, to a standalone Redis or to a Redis Cluster: its commands are those the
 * two have in common ({@link RedisClusterCommands}), which a cluster connection routes to the node owning each key's
 * slot. Lettuce's two stateful connections share no interface with {@code sync()} and {@code async()}, hence this.
 */
public final class DedicatedConnection implements AutoCloseable {

    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> sync;
    private final RedisClusterAsyncCommands<String, String> async;

    private DedicatedConnection(StatefulConnection<String, String> connection,
                                RedisClusterCommands<String, String> sync,
                                RedisClusterAsyncCommands<String, String> async) {
        this.connection = connection;
        this.sync = sync;
        this.async = async;
    }

    static DedicatedConnection of(StatefulRedisConnection<String, String> standalone) {
        return new DedicatedConnection(standalone, standalone.sync(), standalone.async());
    }

    static DedicatedConnection of(StatefulRedisClusterConnection<String, String> cluster) {
        return new DedicatedConnection(cluster, cluster.sync(), cluster.async());
    }

    public RedisClusterCommands<String, String> sync() {
        return sync;
    }

    /** Commands that do not wait for their reply: sent together, they are pipelined. */
    public RedisClusterAsyncCommands<String, String> async() {
        return async;
    }

    public void setTimeout(Duration timeout) {
        connection.setTimeout(timeout);
    }

    /** False: commands queue up until {@link #flushCommands()} (pipelining by hand). */
    public void setAutoFlushCommands(boolean autoFlush) {
        connection.setAutoFlushCommands(autoFlush);
    }

    public void flushCommands() {
        connection.flushCommands();
    }

    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void close() {
        connection.close();
    }
}
