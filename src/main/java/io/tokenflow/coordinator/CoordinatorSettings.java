package io.tokenflow.coordinator;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The coordinator role of this instance.
 *
 * @param enabled       whether this instance routes completions (coordinators scale as one consumer group)
 * @param threads       consumer threads reading the shards' completions streams (on a cluster spread over the
 *                      shards, and at least one per shard: see {@link StreamConsumer})
 * @param batchSize     entries per read
 * @param block         how long a read waits for entries
 * @param claimIdle     how long an entry stays pending before another coordinator takes it over
 * @param claimInterval how often to look for such entries
 * @param routeLocalCompletions whether this instance's built-in workers hand their completions to this coordinator
 *                      in-process instead of through the completions stream ({@link LocalCompletions}); on
 *                      by default
 */
@ConfigurationProperties("tokenflow.coordinator")
public record CoordinatorSettings(@DefaultValue("true") boolean enabled, int threads, int batchSize, Duration block,
                                  Duration claimIdle, Duration claimInterval, boolean routeLocalCompletions) {

    public CoordinatorSettings {
        if (threads < 1 || batchSize < 1) {
            throw new IllegalArgumentException("Expected tokenflow.coordinator threads and batch-size >= 1");
        }
    }
}
