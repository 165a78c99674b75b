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
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.support.OutsiderRedis;
import io.tokenflow.support.SigningKey;

/**
 * Plays an external worker in tests with raw Redis stream commands only (no Tokenflow worker code): takes tokens
 * from a type's streams (one per shard) in the workers' group, and reports each token's completion on the
 * completions stream of the token's shard, as docs/worker-protocol.md says. Each shard's stream is read on its own,
 * as a worker on a Redis Cluster must. Its signals are signed with a worker key, as the protocol asks (§6).
 */
final class ManualWorker {

    private final RedisClusterCommands<String, String> redis;
    private final List<String> streams = new ArrayList<>();
    private final String group;
    private final SigningKey key;

    ManualWorker(RedisClusterCommands<String, String> redis, String type, int shards, SigningKey key) {
        this.redis = redis;
        this.key = key;
        this.group = "wf.workers." + type;
        for (int shard = 0; shard < shards; shard++) {
            String stream = "wf.tasks." + type + ":{" + shard + "}";
            streams.add(stream);
            try {
                redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group,
                        XGroupCreateArgs.Builder.mkstream(true));
            } catch (RedisBusyException exists) {
                // created before
            }
        }
    }

    /** Takes the tokens waiting now (none when empty, after a short wait). */
    List<StreamMessage<String, String>> take() {
        List<StreamMessage<String, String>> taken = new ArrayList<>();
        Duration block = Duration.ofMillis(Math.max(10, 200 / streams.size()));
        for (String stream : streams) {
            List<StreamMessage<String, String>> read = redis.xreadgroup(Consumer.from(group, "manual"),
                    XReadArgs.Builder.count(100).block(block), XReadArgs.StreamOffset.lastConsumed(stream));
            if (read != null) {
                taken.addAll(read);
            }
        }
        return taken;
    }

    void complete(StreamMessage<String, String> token, String outputJson) {
        Map<String, String> body = token.getBody();
        redis.xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "completed", "output", outputJson, "worker", "manual")));
        redis.xack(token.getStream(), group, token.getId());
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
        throw new AssertionError("Expected a token on " + streams + " within " + atMost + ", but none came");
    }

    /** Tells the coordinator the token's work goes on (a heartbeat). */
    void heartbeat(StreamMessage<String, String> token) {
        Map<String, String> body = token.getBody();
        redis.xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of(
                "kind", "heartbeat", "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "worker", "manual")));
    }

    /** Reports a transient failure of the token's attempt, echoing the attempt as the protocol asks. */
    void failTransiently(StreamMessage<String, String> token, String message) {
        Map<String, String> body = token.getBody();
        redis.xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "failed", "worker", "manual", "attempt", body.get("attempt"),
                "error", "{\"message\":\"" + message + "\",\"kind\":\"transient\",\"code\":\"http_503\"}")));
        redis.xack(token.getStream(), group, token.getId());
    }

    void fail(StreamMessage<String, String> token, String message) {
        Map<String, String> body = token.getBody();
        redis.xadd(OutsiderRedis.completionsStreamOf(token), key.signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "failed", "worker", "manual",
                "error", "{\"message\":\"" + message + "\",\"kind\":\"permanent\"}")));
        redis.xack(token.getStream(), group, token.getId());
    }
}
