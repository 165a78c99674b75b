package io.tokenflow.coordinator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Plays an external worker in tests with raw Redis stream commands only (no Tokenflow worker code): takes tokens
 * from a type's stream in the workers' group, and reports completions as docs/worker-protocol.md says.
 */
final class ManualWorker {

    private final RedisCommands<String, String> redis;
    private final String stream;
    private final String group;

    ManualWorker(RedisCommands<String, String> redis, String type) {
        this.redis = redis;
        this.stream = "wf.tasks." + type + ":{0}";
        this.group = "wf.workers." + type;
        try {
            redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group, XGroupCreateArgs.Builder.mkstream(true));
        } catch (RedisBusyException exists) {
            // created before
        }
    }

    /** Takes the tokens waiting now (none when empty). */
    List<StreamMessage<String, String>> take() {
        List<StreamMessage<String, String>> taken = redis.xreadgroup(Consumer.from(group, "manual"),
                XReadArgs.Builder.count(100).block(Duration.ofMillis(200)), XReadArgs.StreamOffset.lastConsumed(stream));
        return taken == null ? List.of() : new ArrayList<>(taken);
    }

    void complete(StreamMessage<String, String> token, String outputJson) {
        Map<String, String> body = token.getBody();
        redis.xadd("wf.completions:{0}", Map.of("token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "completed", "output", outputJson, "worker", "manual"));
        redis.xack(stream, group, token.getId());
    }

    /** Waits up to {@code atMost} for the next token. */
    StreamMessage<String, String> takeOne(Duration atMost) {
        long until = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < until) {
            List<StreamMessage<String, String>> taken = take();
            if (!taken.isEmpty()) {
                return taken.get(0);
            }
        }
        throw new AssertionError("Expected a token on " + stream + " within " + atMost + ", but none came");
    }

    /** Tells the coordinator the token's work goes on (a heartbeat). */
    void heartbeat(StreamMessage<String, String> token) {
        Map<String, String> body = token.getBody();
        redis.xadd("wf.completions:{0}", Map.of("kind", "heartbeat", "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "worker", "manual"));
    }

    /** Reports a transient failure of the token's attempt, echoing the attempt as the protocol asks. */
    void failTransiently(StreamMessage<String, String> token, String message) {
        Map<String, String> body = token.getBody();
        redis.xadd("wf.completions:{0}", Map.of("token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "failed", "worker", "manual", "attempt", body.get("attempt"),
                "error", "{\"message\":\"" + message + "\",\"kind\":\"transient\",\"code\":\"http_503\"}"));
        redis.xack(stream, group, token.getId());
    }

    void fail(StreamMessage<String, String> token, String message) {
        Map<String, String> body = token.getBody();
        redis.xadd("wf.completions:{0}", Map.of("token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "failed", "worker", "manual",
                "error", "{\"message\":\"" + message + "\",\"kind\":\"permanent\"}"));
        redis.xack(stream, group, token.getId());
    }
}
