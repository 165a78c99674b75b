package io.tokenflow.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.Consumer;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * One thread reading streams as a member of a consumer group: read a batch ({@code XREADGROUP … >}), handle it,
 * then {@code XACK} and {@code XDEL} the handled entries. An entry left unhandled stays pending and is taken over
 * ({@code XAUTOCLAIM}) by a member of the group once idle for {@code claimIdle}.
 */
public final class StreamConsumer {

    /**
     * Handles a batch; the connection is the consumer's own and free while the batch is handled (e.g. to pipeline
     * commands). Returns the entries that may be acknowledged.
     */
    @FunctionalInterface
    public interface BatchHandler {
        List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                   StatefulRedisConnection<String, String> connection);
    }

    private static final Log log = LogFactory.getLog(StreamConsumer.class);
    private static final Duration ACKNOWLEDGE_TIMEOUT = Duration.ofSeconds(10);

    private final StatefulRedisConnection<String, String> connection;
    private final List<String> streams;
    private final String group;
    private final String name;
    private final int batchSize;
    private final Duration block;
    private final Duration claimIdle;
    private final Duration claimInterval;
    private final BatchHandler handler;
    private volatile boolean running = true;
    private Thread thread;
    private long nextClaim;

    public StreamConsumer(StatefulRedisConnection<String, String> connection, List<String> streams, String group,
                          String name, int batchSize, Duration block, Duration claimIdle, Duration claimInterval,
                          BatchHandler handler) {
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
                    handleBatch(batch);
                }
            } catch (RuntimeException e) {
                if (running && e instanceof RedisCommandExecutionException
                        && String.valueOf(e.getMessage()).startsWith("NOGROUP")) {
                    // the streams went with Redis's data (flushed, restarted without its file): read them anew
                    log.warn("Consumer " + name + " of " + group + " found its group gone; creating it again");
                    streams.forEach(this::createGroup);
                } else if (running) {
                    log.error("Consumer " + name + " of " + group + " failed; retrying", e);
                    pause();
                }
            }
        }
    }

    private void handleBatch(List<StreamMessage<String, String>> batch) {
        List<StreamMessage<String, String>> live = new ArrayList<>(batch.size());
        List<StreamMessage<String, String>> done = new ArrayList<>(batch.size());
        for (StreamMessage<String, String> message : batch) {
            boolean deleted = message.getBody() == null || message.getBody().isEmpty();
            (deleted ? done : live).add(message);
        }
        if (!live.isEmpty()) {
            try {
                done.addAll(handler.handle(live, connection));
            } catch (RuntimeException e) {
                log.error("Handling a batch of " + live.size() + " entries failed; they stay pending and are retried "
                        + "after " + claimIdle, e);
            }
        }
        Map<String, List<String>> byStream = new HashMap<>();
        done.forEach(m -> byStream.computeIfAbsent(m.getStream(), s -> new ArrayList<>()).add(m.getId()));
        // XACK and XDEL of every stream in flight together: one round trip
        RedisAsyncCommands<String, String> async = connection.async();
        List<RedisFuture<Long>> replies = new ArrayList<>();
        byStream.forEach((stream, ids) -> {
            String[] idArray = ids.toArray(String[]::new);
            replies.add(async.xack(stream, group, idArray));
            replies.add(async.xdel(stream, idArray));
        });
        if (!LettuceFutures.awaitAll(ACKNOWLEDGE_TIMEOUT, replies.toArray(RedisFuture[]::new))) {
            throw new RedisCommandTimeoutException("Expected XACK/XDEL of " + done.size() + " entries within "
                    + ACKNOWLEDGE_TIMEOUT + "; they are delivered again");
        }
    }

    /** The index of a stream in the list this consumer reads (the shard, for per-shard streams). */
    public int indexOf(String stream) {
        return streams.indexOf(stream);
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
                handleBatch(claimed.getMessages());
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
