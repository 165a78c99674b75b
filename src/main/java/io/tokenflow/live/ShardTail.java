package io.tokenflow.live;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import tools.jackson.databind.json.JsonMapper;

/**
 * Follows one shard's events stream with plain {@code XREAD} (not the supervisors' group: every instance sees every
 * entry), from the newest entry when it starts. Entries the supervisor deleted before this tail read them are simply
 * not seen: the run pages notice the gap in the run's seq and read it from PostgreSQL.
 */
final class ShardTail implements Runnable {

    private static final Log log = LogFactory.getLog(ShardTail.class);
    private static final long IDLE_MILLIS = 50;

    private final RedisClusterCommands<String, String> redis;
    private final String stream;
    private final LiveSettings settings;
    private final JsonMapper json;
    private final Consumer<LiveEntry> sink;
    private final BooleanSupplier watched;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private String lastId;

    /** @param watched whether anyone subscribes to a live topic now; while nobody does the stream is not read */
    ShardTail(RedisClusterCommands<String, String> redis, String stream, LiveSettings settings, JsonMapper json,
              Consumer<LiveEntry> sink, BooleanSupplier watched) {
        this.watched = watched;
        this.redis = redis;
        this.stream = stream;
        this.settings = settings;
        this.json = json;
        this.sink = sink;
    }

    @Override
    public void run() {
        while (stopped.getCount() > 0) {
            try {
                if (!watched.getAsBoolean()) {
                    // nobody looks: reading (and parsing) every event would only cost the hot path. The tail resumes
                    // where it stopped; the supervisor deletes persisted entries, so what it finds then is only what
                    // PostgreSQL may not show yet
                    idle();
                    continue;
                }
                if (lastId == null) {
                    lastId = newestId();
                }
                read();
            } catch (RuntimeException e) {
                if (stopped.getCount() > 0) {
                    log.warn("Tailing " + stream + " failed (retrying): " + e.getMessage());
                    pause();
                }
            }
        }
    }

    void stop() {
        stopped.countDown();
    }

    private void read() {
        List<StreamMessage<String, String>> messages = redis.xread(
                XReadArgs.Builder.block(settings.block()).count(settings.batchSize()),
                XReadArgs.StreamOffset.from(stream, lastId));
        if (messages == null) {
            return;
        }
        for (StreamMessage<String, String> message : messages) {
            lastId = message.getId();
            deliver(message);
        }
    }

    private void deliver(StreamMessage<String, String> message) {
        try {
            String run = message.getBody().get("run");
            String events = message.getBody().get("events");
            if (run != null && events != null) {
                sink.accept(new LiveEntry(UUID.fromString(run), LiveEvent.all(json.readTree(events))));
            }
        } catch (RuntimeException e) {
            log.warn("Skipping events-stream entry " + message.getId() + " of " + stream + ": " + e.getMessage());
        }
    }

    /** The id of the stream's newest entry, or {@code 0-0} when it is empty (then every later entry is new). */
    private String newestId() {
        List<StreamMessage<String, String>> newest = redis.xrevrange(stream, Range.create("-", "+"),
                io.lettuce.core.Limit.from(1));
        return newest == null || newest.isEmpty() ? "0-0" : newest.get(0).getId();
    }

    private void idle() {
        try {
            stopped.await(IDLE_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void pause() {
        try {
            stopped.await(settings.block().toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.countDown();
        }
    }
}
