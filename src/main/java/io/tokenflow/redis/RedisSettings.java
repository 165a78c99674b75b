package io.tokenflow.redis;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How Tokenflow lays out its Redis keys.
 *
 * @param shards number of shards; every run belongs to one, and all of a run's keys and the streams its tokens travel
 *               on share that shard's hash tag, so one atomic step touches one Redis Cluster slot. A run's shard
 *               is chosen when it starts and written in its id, so the count can be raised while runs are in flight
 */
@ConfigurationProperties("tokenflow.redis")
public record RedisSettings(int shards) {

    public RedisSettings {
        if (shards < 1 || shards > RedisKeys.MAX_SHARDS) {
            throw new IllegalArgumentException("Expected tokenflow.redis.shards in [1, " + RedisKeys.MAX_SHARDS
                    + "], but found " + shards);
        }
    }
}
