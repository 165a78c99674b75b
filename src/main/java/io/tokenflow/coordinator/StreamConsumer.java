package io.tokenflow.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One thread reading streams as a member of a consumer group: read a batch ({@code XREADGROUP … >}), handle each
 * entry, then {@code XACK} and {@code XDEL} the handled ones in one round trip. An entry whose handling throws stays
 * pending and is taken over ({@code XAUTOCLAIM}) by a member of the group once idle for {@code claimIdle}.
 */
public final class StreamConsumer {

    /** Handles one entry of the stream at {@code streamIndex}; returns whether it may be acknowledged. */
    @FunctionalInterface
    public interface Handler {
        boolean handle(int streamIndex, String entryId, Map<String, String> fields) throws Exception;
    }

    private static final Log log = LogFactory.getLog(StreamConsumer.class);

    private final StatefulRedisConnection<String, String> connection;
    private final List<String> streams;
    private final String group;
    private final String name;
    private final int batchSize;
    private final Duration block;
    private final Duration claimIdle;
    private final Duration claimInterval;
    private final Handler handler;
    private volatile boolean running = true;
    private Thread thread;
    private long nextClaim;

    public StreamConsumer(StatefulRedisConnection<String, String> connection, List<String> streams, String group,
                          String name, int batchSize, Duration block, Duration claimIdle, Duration claimInterval,
                          Handler handler) {
        this.connection = connection;
        this.streams = List.copyOf(streams);
        this.group = group;
        this.name = name;
        this.batchSize = batchSize;
        this.block = block;
        this.claimIdle = claimIdle;
        this.claimInterval = claimInterval;
        this.handler = handler;
    }

    public void start(String threadName) {
        streams.forEach(this::createGroup);
        thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    public void stop() {
        running = false;
        if (thread != null) {
            try {
                thread.join(block.toMillis() + 2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void loop() {
        RedisCommands<String, String> redis = connection.sync();
        while (running) {
            try {
                claimAbandoned(redis);
                List<StreamMessage<String, String>> batch = redis.xreadgroup(Consumer.from(group, name),
                        XReadArgs.Builder.count(batchSize).block(block), offsets());
                if (batch != null && !batch.isEmpty()) {
                    handleBatch(redis, batch);
                }
            } catch (RuntimeException e) {
                if (running) {
                    log.error("Consumer " + name + " of " + group + " failed; retrying", e);
                    pause();
                }
            }
        }
    }

    private void handleBatch(RedisCommands<String, String> redis, List<StreamMessage<String, String>> batch) {
        Map<String, List<String>> done = new java.util.HashMap<>();
        for (StreamMessage<String, String> message : batch) {
            if (handleOne(message)) {
                done.computeIfAbsent(message.getStream(), s -> new ArrayList<>()).add(message.getId());
            }
        }
        done.forEach((stream, ids) -> {
            String[] idArray = ids.toArray(String[]::new);
            redis.xack(stream, group, idArray);
            redis.xdel(stream, idArray);
        });
    }

    private boolean handleOne(StreamMessage<String, String> message) {
        if (message.getBody() == null || message.getBody().isEmpty()) {
            return true; // claimed after it was deleted: nothing left to do
        }
        try {
            return handler.handle(streams.indexOf(message.getStream()), message.getId(), message.getBody());
        } catch (Exception e) {
            log.error("Handling " + message.getStream() + " entry " + message.getId() + " failed; it stays pending "
                    + "and is retried after " + claimIdle, e);
            return false;
        }
    }

    private void claimAbandoned(RedisCommands<String, String> redis) {
        long now = System.currentTimeMillis();
        if (now < nextClaim) {
            return;
        }
        nextClaim = now + claimInterval.toMillis();
        for (String stream : streams) {
            var claimed = redis.xautoclaim(stream, new XAutoClaimArgs<String>().consumer(Consumer.from(group, name))
                    .minIdleTime(claimIdle).startId("0-0").count(batchSize));
            if (!claimed.getMessages().isEmpty()) {
                log.info(name + " took over " + claimed.getMessages().size() + " abandoned entries of " + stream);
                handleBatch(redis, claimed.getMessages());
            }
        }
    }

    @SuppressWarnings("unchecked")
    private XReadArgs.StreamOffset<String>[] offsets() {
        return streams.stream().map(XReadArgs.StreamOffset::lastConsumed).toArray(XReadArgs.StreamOffset[]::new);
    }

    private void createGroup(String stream) {
        try {
            connection.sync().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group,
                    XGroupCreateArgs.Builder.mkstream(true));
        } catch (RedisBusyException alreadyExists) {
            // the group exists: another instance or an earlier start created it
        }
    }

    private void pause() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
