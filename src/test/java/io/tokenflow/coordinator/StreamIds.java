package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.sync.RedisCommands;

/** The last entry id a stream handed out, to tell whether anything was added to it (deleted entries included). */
final class StreamIds {

    private final RedisCommands<String, String> redis;

    StreamIds(RedisCommands<String, String> redis) {
        this.redis = redis;
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
        String[] last = {lastId(stream)};
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300)).until(() -> {
            String now = lastId(stream);
            boolean quiet = now.equals(last[0]);
            last[0] = now;
            return quiet;
        });
        return last[0];
    }
}
