package io.tokenflow.coordinator;

import org.springframework.stereotype.Component;

/**
 * The one place Redis key and stream names are built. Every name carries its shard as a hash tag ({@code {N}}), so
 * the keys of one run and the streams of its shard live in one Redis Cluster slot.
 */
@Component
public class RedisKeys {

    private static final String PREFIX = "wf";
    private final int shards;

    public RedisKeys(RedisSettings settings) {
        this.shards = settings.shards();
    }

    public int shards() {
        return shards;
    }

    /** The stream a worker type reads its tokens from, e.g. {@code wf.tasks.function:{0}}. */
    public String taskStream(String workerType, int shard) {
        return PREFIX + ".tasks." + workerType + ":" + tag(shard);
    }

    /** The consumer group the workers of one type share. */
    public String workerGroup(String workerType) {
        return PREFIX + ".workers." + workerType;
    }

    private String tag(int shard) {
        if (shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("Expected a shard in [0, " + shards + "), but found " + shard);
        }
        return "{" + shard + "}";
    }
}
