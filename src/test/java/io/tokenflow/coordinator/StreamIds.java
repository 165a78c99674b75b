package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.redis.RedisKeys;

/** The last entry id a stream handed out, to tell whether anything was added to it (deleted entries included). */
final class StreamIds {

    private final RedisClusterCommands<String, String> redis;

    StreamIds(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
    }

    /** The completions streams of every shard. */
    static List<String> completionsStreams(RedisKeys keys) {
        return IntStream.range(0, keys.shards()).mapToObj(keys::completionsStream).toList();
    }

    /** The last entry ids of several streams, in one string. */
    String lastId(List<String> streams) {
        return String.join(",", streams.stream().map(this::lastId).toList());
    }

    /** The last entry ids of several streams once nothing was added to any for a while. */
    String quietLastId(List<String> streams) {
        String[] last = {lastId(streams)};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
            String now = lastId(streams);
            boolean quiet = now.equals(last[0]);
            last[0] = now;
            return quiet;
        });
        return last[0];
    }

    String lastId(String stream) {
        if (redis.exists(stream) == 0) {
            return "none";
        }
        List<Object> info = redis.xinfoStream(stream);
        return String.valueOf(info.get(info.indexOf("last-generated-id") + 1));
    }

    /** The stream's last entry id once nothing was added to it for a while (earlier tests' runs have settled). */
    String quietLastId(String stream) {
        return quietLastId(List.of(stream));
    }
}
