package io.tokenflow.redis;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How Tokenflow lays out its Redis keys.
 *
 * @param shards number of shards; every run belongs to one, and all of a run's keys and the streams its tokens travel
 *               on share that shard's hash tag, so one atomic step touches one Redis Cluster slot
 */
@ConfigurationProperties("tokenflow.redis")
public record RedisSettings(int shards) {

    public RedisSettings {
        if (shards < 1) {
            throw new IllegalArgumentException("Expected tokenflow.redis.shards >= 1, but found " + shards);
        }
    }
}
