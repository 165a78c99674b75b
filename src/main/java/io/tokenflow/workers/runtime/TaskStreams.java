package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.tokenflow.coordinator.LocalCompletions;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;
import io.tokenflow.signing.EngineSignals;

/**
 * One consumer's view of the task streams of its type, over the shards it reads (all of them on a single Redis, one
 * on a cluster), on its own connection. Commands are
 * pipelined: nothing goes out until {@link #flush()} (or a method that waits for its replies).
 */
final class TaskStreams {

    private static final Logger log = LoggerFactory.getLogger(TaskStreams.class);

    static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);

    private final DedicatedConnection connection;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final RedisKeys keys;
    private final LocalCompletions local;
    private final EngineSignals signals;
    private final String group;
    private final Consumer<String> consumer;
    private final Map<String, Integer> shards = new LinkedHashMap<>();
    private final Map<String, String> claimCursors = new HashMap<>();
    private final List<RedisFuture<Long>> acknowledgements = new ArrayList<>();
    private final StreamOffset<String>[] newEntries;

    @SuppressWarnings("unchecked")
    TaskStreams(DedicatedConnection connection, RedisKeys keys, LocalCompletions local, EngineSignals signals,
                String type, String consumer, List<Integer> shardsRead) {
        this.signals = signals;
        this.connection = connection;
        this.local = local;
        this.redis = connection.async();
        this.keys = keys;
        this.group = keys.workerGroup(type);
        this.consumer = Consumer.from(group, consumer);
        for (int shard : shardsRead) {
            shards.put(keys.taskStream(type, shard), shard);
        }
        this.newEntries = shards.keySet().stream().map(StreamOffset::lastConsumed).toArray(StreamOffset[]::new);
        connection.setAutoFlushCommands(false);
    }

    Consumer<String> consumer() {
        return consumer;
    }

    int shardOf(String stream) {
        return shards.get(stream);
    }

    /** Creates the consumer group on every stream of the type, and the streams themselves, where missing. */
    void ensureGroups() {
        List<RedisFuture<String>> replies = new ArrayList<>();
        shards.keySet().forEach(stream -> replies.add(redis.xgroupCreate(StreamOffset.from(stream, "0"), group,
                XGroupCreateArgs.Builder.mkstream())));
        flush();
        for (RedisFuture<String> reply : replies) {
            try {
                await(reply, REPLY_TIMEOUT);
            } catch (RedisCommandExecutionException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
                    throw e;
                }
            }
        }
    }

    /** New tokens from any shard, waiting up to {@code block} for the first. */
    List<StreamMessage<String, String>> read(int count, Duration block) {
        RedisFuture<List<StreamMessage<String, String>>> reply = redis.xreadgroup(consumer,
                XReadArgs.Builder.count(count).block(block), newEntries);
        flush();
        List<StreamMessage<String, String>> messages = await(reply, block.plus(REPLY_TIMEOUT));
        checkAcknowledgements();
        return messages == null ? List.of() : messages;
    }

    /**
     * Takes over tokens other consumers left unacknowledged for longer than {@code minIdle}, one page per shard.
     * Entries deleted while pending (Redis 6 still lists them, without fields) are acknowledged away.
     */
    List<StreamMessage<String, String>> claim(int count, Duration minIdle) {
        Map<String, RedisFuture<ClaimedMessages<String, String>>> replies = new LinkedHashMap<>();
        shards.keySet().forEach(stream -> replies.put(stream, redis.xautoclaim(stream, XAutoClaimArgs.Builder
                .xautoclaim(consumer, minIdle, claimCursors.getOrDefault(stream, "0-0")).count(count))));
        flush();
        List<StreamMessage<String, String>> claimed = new ArrayList<>();
        replies.forEach((stream, reply) -> {
            ClaimedMessages<String, String> page = await(reply, REPLY_TIMEOUT);
            claimCursors.put(stream, page.getId());
            for (StreamMessage<String, String> message : page.getMessages()) {
                if (message.getBody() != null) {
                    claimed.add(message);
                } else {
                    redis.xack(stream, group, message.getId());
                }
            }
        });
        flush();
        return claimed;
    }

    /** Asks for the {@code status} of each run's meta hash, without waiting for the replies. */
    RunStatuses askRunStatuses(Map<UUID, Integer> runShards) {
        if (runShards.isEmpty()) {
            return new RunStatuses(Map.of());
        }
        Map<UUID, RedisFuture<String>> replies = new HashMap<>();
        runShards.forEach((run, shard) -> replies.put(run, RunMeta.askStatus(redis, keys, run, shard)));
        flush();
        return new RunStatuses(replies);
    }

    /** The statuses of the runs of a batch, asked for at once; each awaited only when first needed. */
    record RunStatuses(Map<UUID, RedisFuture<String>> replies) {

        /** Whether the run still wants its tokens: it exists and is neither cancelled nor failed. */
        boolean live(UUID run) {
            RedisFuture<String> reply = replies.get(run);
            String status = reply == null ? null : await(reply, REPLY_TIMEOUT);
            return RunMeta.wantsTokens(status);
        }
    }

    /** Whether completions are handed to this instance's coordinator in-process (see {@link #complete}). */
    boolean routesInProcess() {
        return local.enabled();
    }

    /**
     * Queues a token's completion signal: handed to this instance's coordinator in-process when it routes local
     * completions, else added to the completions stream of the token's shard.
     */
    SentCompletion complete(TaskEntry entry, Map<String, String> fields) {
        if (local.enabled()) {
            Optional<LocalCompletions.Sent> sent = local.send(entry.stream() + "/" + entry.id(), entry.shard(),
                    fields, redis);
            if (sent.isPresent()) {
                return sent.get()::settle;
            }
        }
        RedisFuture<String> reply = redis.xadd(keys.completionsStream(entry.shard()), signals.signed(fields));
        return () -> await(reply, REPLY_TIMEOUT);
    }

    /** A completion on its way; {@link #await} returns once it is routed or on the completions stream, else throws. */
    @FunctionalInterface
    interface SentCompletion {
        void await();
    }

    /**
     * Queues acknowledging and deleting finished tokens; they go out with the next read (saving a round trip), and
     * their replies are checked after it. A failed acknowledgement only means the token is delivered again.
     */
    void acknowledge(Map<String, List<String>> idsByStream) {
        idsByStream.forEach((stream, ids) -> {
            String[] entryIds = ids.toArray(String[]::new);
            acknowledgements.add(redis.xack(stream, group, entryIds));
            acknowledgements.add(redis.xdel(stream, entryIds));
        });
    }

    /** Sends queued acknowledgements and waits for them, e.g. before the connection closes. */
    void finish() {
        flush();
        checkAcknowledgements();
    }

    private void checkAcknowledgements() {
        for (RedisFuture<Long> reply : acknowledgements) {
            try {
                await(reply, REPLY_TIMEOUT);
            } catch (RuntimeException e) {
                log.warn("Could not acknowledge finished tokens on {}; they will be delivered again", group, e);
            }
        }
        acknowledgements.clear();
    }

    void flush() {
        connection.flushCommands();
    }

    static <T> T await(RedisFuture<T> reply, Duration timeout) {
        try {
            return reply.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause
                    : new IllegalStateException("Expected a reply from Redis, but got " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Expected a reply from Redis within " + timeout + ", but none came", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Redis", e);
        }
    }
}
