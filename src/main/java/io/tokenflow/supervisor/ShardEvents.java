package io.tokenflow.supervisor;

import java.util.Collection;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import io.tokenflow.redis.LuaScript;
import io.tokenflow.redis.RedisKeys;

/**
 * One shard's events stream as seen by one supervisor of the {@code wf.supervisors} group, on a connection of its
 * own (reads block).
 */
final class ShardEvents {

    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final int shard;
    private final String stream;
    private final Consumer<String> consumer;
    private final SupervisorSettings settings;
    private final LuaScript forgetRuns;

    ShardEvents(RedisClusterCommands<String, String> redis, RedisKeys keys, int shard, String consumerName,
                SupervisorSettings settings, LuaScript forgetRuns) {
        this.redis = redis;
        this.keys = keys;
        this.shard = shard;
        this.stream = keys.eventsStream(shard);
        this.consumer = Consumer.from(RedisKeys.SUPERVISORS_GROUP, consumerName);
        this.settings = settings;
        this.forgetRuns = forgetRuns;
    }

    int shard() {
        return shard;
    }

    String stream() {
        return stream;
    }

    /** Creates the group (and the stream) when missing; the group starts at the stream's first entry. */
    void ensureGroup() {
        try {
            redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), RedisKeys.SUPERVISORS_GROUP,
                    XGroupCreateArgs.Builder.mkstream(true));
        } catch (RedisBusyException alreadyExists) {
            // another supervisor, or an earlier start, created it
        }
    }

    /** Entries no member of the group has read yet, waiting up to {@code block} for some. */
    List<StreamMessage<String, String>> readNew() {
        return orEmpty(redis.xreadgroup(consumer, XReadArgs.Builder.count(settings.batchSize()).block(settings.block()),
                XReadArgs.StreamOffset.lastConsumed(stream)));
    }

    /** Entries this consumer read before and has not acknowledged, after the entry id {@code after}. */
    List<StreamMessage<String, String>> readPending(String after) {
        return orEmpty(redis.xreadgroup(consumer, XReadArgs.Builder.count(settings.batchSize()),
                XReadArgs.StreamOffset.from(stream, after)));
    }

    /** Takes over entries any member read but left unacknowledged for longer than {@code claimIdle}. */
    List<StreamMessage<String, String>> claimAbandoned() {
        return orEmpty(redis.xautoclaim(stream, new XAutoClaimArgs<String>().consumer(consumer)
                .minIdleTime(settings.claimIdle()).startId("0-0").count(settings.batchSize())).getMessages());
    }

    /**
     * Takes over, whatever their idle time, the entries any member read but left unacknowledged, from {@code cursor}
     * on: what the shard's former holder left when this supervisor took its lease over.
     *
     * @return the entries taken over, and the cursor to go on from ({@code 0-0}: all were looked at)
     */
    Taken takeOver(String cursor) {
        var claimed = redis.xautoclaim(stream, new XAutoClaimArgs<String>().consumer(consumer)
                .minIdleTime(java.time.Duration.ZERO).startId(cursor).count(settings.batchSize()));
        return new Taken(orEmpty(claimed.getMessages()), claimed.getId());
    }

    /** Entries taken over, and where to go on. */
    record Taken(List<StreamMessage<String, String>> messages, String next) {
    }

    /** Acknowledges and deletes entries written to PostgreSQL. */
    void acknowledge(Collection<String> ids) {
        if (!ids.isEmpty()) {
            String[] array = ids.toArray(String[]::new);
            redis.xack(stream, RedisKeys.SUPERVISORS_GROUP, array);
            redis.xdel(stream, array);
        }
    }

    /** Lets the Redis state of persisted, finished runs go (after the retention) and drops them from the active set. */
    void forget(Collection<UUID> runs) {
        if (runs.isEmpty()) {
            return;
        }
        List<String> runKeys = new java.util.ArrayList<>();
        runKeys.add(keys.activeRuns(shard));
        List<String> args = new java.util.ArrayList<>();
        args.add(Long.toString(settings.finishedRunRetention().toMillis()));
        args.add("");
        for (UUID run : runs) {
            List<String> ofRun = keys.run(run, shard).all();
            runKeys.addAll(ofRun);
            args.set(1, Integer.toString(ofRun.size()));
            args.add(run.toString());
        }
        forgetRuns.run(redis, runKeys, args);
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
