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
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisConnections;

/**
 * Reads streams (one per shard) as a member of a consumer group: read a batch ({@code XREADGROUP … >}), handle it,
 * then {@code XACK} and {@code XDEL} the handled entries. An entry left unhandled stays pending and is taken over
 * ({@code XAUTOCLAIM}) by a member of the group once idle for {@code claimIdle}.
 *
 * <p>It reads with {@code threads} threads, each with a connection of its own: on a single Redis each reads all the
 * streams; on a cluster they are spread over the shards, at least one per shard ({@link RedisConnections#readers}).
 */
public final class StreamConsumer {

    /**
     * Handles a batch; the connection is the reading thread's own and free while the batch is handled (e.g. to
     * pipeline commands). Returns the entries that may be acknowledged.
     */
    @FunctionalInterface
    public interface BatchHandler {
        List<StreamMessage<String, String>> handle(List<StreamMessage<String, String>> batch,
                                                   DedicatedConnection connection);
    }

    private static final Log log = LogFactory.getLog(StreamConsumer.class);
    private static final Duration ACKNOWLEDGE_TIMEOUT = Duration.ofSeconds(10);

    private final RedisConnections redis;
    private final List<String> streams;
    private final String group;
    private final String name;
    private final int threads;
    private final int batchSize;
    private final Duration block;
    private final Duration claimIdle;
    private final Duration claimInterval;
    private final BatchHandler handler;
    private final List<Thread> started = new ArrayList<>();
    private volatile boolean reading = true;

    /**
     * @param name the group member's name; with more than one thread, thread {@code i}'s is {@code name-i} (members
     *             reading one stream need names of their own)
     */
    public StreamConsumer(RedisConnections redis, List<String> streams, String group, String name, int threads,
                          int batchSize, Duration block, Duration claimIdle, Duration claimInterval,
                          BatchHandler handler) {
        this.redis = redis;
        this.streams = List.copyOf(streams);
        this.group = group;
        this.name = name;
        this.threads = threads;
        this.batchSize = batchSize;
        this.block = block;
        this.claimIdle = claimIdle;
        this.claimInterval = claimInterval;
        this.handler = handler;
    }

    /** Starts the reading threads, named {@code threadName-i} (just {@code threadName} when there is one). */
    public void start(String threadName) {
        List<List<String>> reads = redis.readers(streams, threads);
        for (int i = 0; i < reads.size(); i++) {
            String suffix = reads.size() == 1 ? "" : "-" + i;
            Reader reader = new Reader(redis.dedicated(block), reads.get(i), name + suffix);
            reads.get(i).forEach(reader::createGroup);
            Thread thread = new Thread(reader::loop, threadName + suffix);
            thread.setDaemon(true);
            started.add(thread);
            thread.start();
        }
    }

    /** How many threads read: {@code threads}, or more on a cluster with more shards. */
    public int threads() {
        return started.size();
    }

    public void stop() {
        reading = false;
        for (Thread thread : started) {
            try {
                thread.join(block.toMillis() + 2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One reading thread's connection and streams. */
    private final class Reader {

        private final DedicatedConnection connection;
        private final List<String> read;
        private final Consumer<String> member;
        private final Map<String, String> claimCursors = new HashMap<>();
        private long nextClaim;

        Reader(DedicatedConnection connection, List<String> read, String member) {
            this.connection = connection;
            this.read = read;
            this.member = Consumer.from(group, member);
        }

        void loop() {
            RedisClusterCommands<String, String> commands = connection.sync();
            while (reading) {
                try {
                    claimAbandoned(commands);
                    List<StreamMessage<String, String>> batch = commands.xreadgroup(member,
                            XReadArgs.Builder.count(batchSize).block(block), offsets());
                    if (batch != null && !batch.isEmpty()) {
                        handleBatch(batch);
                    }
                } catch (RuntimeException e) {
                    if (reading && e instanceof RedisCommandExecutionException
                            && String.valueOf(e.getMessage()).startsWith("NOGROUP")) {
                        // the streams went with Redis's data (flushed, restarted without its file): read them anew
                        log.warn("Consumer " + member.getName() + " of " + group
                                + " found its group gone; creating it again");
                        read.forEach(this::createGroup);
                    } else if (reading) {
                        log.error("Consumer " + member.getName() + " of " + group + " failed; retrying", e);
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
                    log.error("Handling a batch of " + live.size() + " entries failed; they stay pending and are "
                            + "retried after " + claimIdle, e);
                }
            }
            Map<String, List<String>> byStream = new HashMap<>();
            done.forEach(m -> byStream.computeIfAbsent(m.getStream(), s -> new ArrayList<>()).add(m.getId()));
            // XACK and XDEL of every stream in flight together: one round trip
            RedisClusterAsyncCommands<String, String> async = connection.async();
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

        private void claimAbandoned(RedisClusterCommands<String, String> commands) {
            long now = System.currentTimeMillis();
            if (now < nextClaim) {
                return;
            }
            nextClaim = now + claimInterval.toMillis();
            for (String stream : read) {
                var claimed = commands.xautoclaim(stream, new XAutoClaimArgs<String>()
                        .consumer(member).minIdleTime(claimIdle)
                        .startId(claimCursors.getOrDefault(stream, "0-0")).count(batchSize));
                // the next look goes on after these (back at the start once the whole list was looked at): entries
                // that fail again and again at the head of the pending list must not hide a dead member's behind them
                claimCursors.put(stream, claimed.getId());
                if (!claimed.getMessages().isEmpty()) {
                    log.info(member.getName() + " took over " + claimed.getMessages().size() + " abandoned entries of "
                            + stream);
                    handleBatch(claimed.getMessages());
                }
            }
        }

        @SuppressWarnings("unchecked")
        private XReadArgs.StreamOffset<String>[] offsets() {
            return read.stream().map(XReadArgs.StreamOffset::lastConsumed).toArray(XReadArgs.StreamOffset[]::new);
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
                reading = false;
            }
        }
    }
}
