package io.tokenflow.live;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How live views follow the engine.
 *
 * @param enabled        whether this instance tails the events streams and serves {@code /live}
 * @param coalesce       at most one push per topic this often (the latest state wins), in rounds shared by all topics
 * @param block          how long one read of an events stream waits for new entries
 * @param batchSize      events-stream entries taken per read
 * @param sendTimeLimit  a browser that takes longer than this to accept a push is disconnected (it reconnects and
 *                       resumes from the last event it saw)
 * @param sendBufferSize bytes of pushes queued for one slow browser before it is disconnected
 * @param cachedEvents   run events kept in memory for run pages (least recently used runs are dropped first)
 * @param resync         how often each watched topic asks where its runs are now, for events the tailers missed (read
 *                       and deleted by the supervisor while this instance was not reading, or was behind)
 */
@ConfigurationProperties("tokenflow.live")
public record LiveSettings(@DefaultValue("true") boolean enabled, @DefaultValue("100ms") Duration coalesce,
                           @DefaultValue("1s") Duration block, @DefaultValue("500") int batchSize,
                           @DefaultValue("10s") Duration sendTimeLimit, @DefaultValue("4194304") int sendBufferSize,
                           @DefaultValue("400000") int cachedEvents, @DefaultValue("1s") Duration resync) {

    public LiveSettings {
        if (coalesce.isNegative() || coalesce.isZero() || block.isNegative() || block.isZero() || resync.isNegative()
                || resync.isZero()) {
            throw new IllegalArgumentException("Expected tokenflow.live.coalesce, block and resync > 0, but found "
                    + coalesce + ", " + block + " and " + resync);
        }
        if (batchSize < 1 || sendBufferSize < 1024 || cachedEvents < 1) {
            throw new IllegalArgumentException("Expected tokenflow.live.batch-size >= 1, send-buffer-size >= 1024 and "
                    + "cached-events >= 1, but found " + batchSize + ", " + sendBufferSize + " and " + cachedEvents);
        }
    }
}
