package io.tokenflow.metrics;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessages;

import io.tokenflow.redis.RedisKeys;

/**
 * Reads one task stream's queue as its consumer group sees it: entries not yet delivered plus entries delivered and
 * not acknowledged (depth), the age of the oldest of them, and the group's consumers seen lately, busy when they hold
 * pending entries. Undelivered entries are the group's {@code lag} where Redis (7+) reports it, else counted after the
 * group's last delivered id up to {@link #COUNT_LIMIT} (Redis 6.2 has no {@code lag}). A stream without the group (no
 * worker of the type has read it yet) has every entry waiting.
 */
final class TaskQueues {

    static final int COUNT_LIMIT = 10_000;

    /** One stream's queue; {@code oldestMillis} 0 when nothing waits. */
    record Queue(long depth, long oldestMillis, int busy, int idle) {
        static final Queue EMPTY = new Queue(0, 0, 0, 0);
    }

    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final Clock clock;
    private final long workerSeenMillis;

    TaskQueues(RedisClusterCommands<String, String> redis, RedisKeys keys, Clock clock, long workerSeenMillis) {
        this.redis = redis;
        this.keys = keys;
        this.clock = clock;
        this.workerSeenMillis = workerSeenMillis;
    }

    /** The queue of a worker type on a shard; empty when its stream does not exist (yet). */
    Queue read(String type, int shard) {
        String stream = keys.taskStream(type, shard);
        String group = keys.workerGroup(type);
        if (redis.exists(stream) == 0) {
            return Queue.EMPTY;
        }
        Map<String, Object> info;
        try {
            info = redis.xinfoGroups(stream).stream().map(TaskQueues::fields)
                    .filter(fields -> group.equals(fields.get("name"))).findFirst().orElse(null);
        } catch (RedisCommandExecutionException e) {
            return unread(stream);
        }
        if (info == null) {
            return unread(stream);
        }
        String lastDelivered = String.valueOf(info.get("last-delivered-id"));
        long pending = number(info.get("pending"));
        long oldest = Long.MAX_VALUE;
        PendingMessages summary = redis.xpending(stream, group);
        if (summary.getCount() > 0 && summary.getMessageIds().getLower().getValue() != null) {
            oldest = millisOf(summary.getMessageIds().getLower().getValue());
        }
        Range<String> after = Range.from(Range.Boundary.excluding(lastDelivered), Range.Boundary.unbounded());
        List<StreamMessage<String, String>> first = redis.xrange(stream, after, Limit.create(0, 1));
        long undelivered = 0;
        if (!first.isEmpty()) {
            oldest = Math.min(oldest, millisOf(first.get(0).getId()));
            Object lag = info.get("lag");
            undelivered = lag instanceof Number known ? known.longValue()
                    : redis.xrange(stream, after, Limit.create(0, COUNT_LIMIT)).size();
        }
        long now = clock.millis();
        int busy = 0;
        int idle = 0;
        for (Object consumer : redis.xinfoConsumers(stream, group)) {
            Map<String, Object> fields = fields(consumer);
            if (number(fields.get("idle")) <= workerSeenMillis) {
                if (number(fields.get("pending")) > 0) {
                    busy++;
                } else {
                    idle++;
                }
            }
        }
        return new Queue(pending + undelivered, oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest), busy, idle);
    }

    /** A stream no worker has read yet (its group is made by the first worker): every entry waits. */
    private Queue unread(String stream) {
        List<StreamMessage<String, String>> first = redis.xrange(stream, Range.create("-", "+"), Limit.create(0, 1));
        long oldest = first.isEmpty() ? 0 : Math.max(0, clock.millis() - millisOf(first.get(0).getId()));
        return new Queue(redis.xlen(stream), oldest, 0, 0);
    }

    private static Map<String, Object> fields(Object reply) {
        Map<String, Object> fields = new HashMap<>();
        if (reply instanceof List<?> flat) {
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(String.valueOf(flat.get(i)), flat.get(i + 1));
            }
        }
        return fields;
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : value == null ? 0 : Long.parseLong(value.toString());
    }

    private static long millisOf(String entryId) {
        return Long.parseLong(entryId.substring(0, entryId.indexOf('-')));
    }
}
