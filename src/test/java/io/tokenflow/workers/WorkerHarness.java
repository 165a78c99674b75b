package io.tokenflow.workers;

import static org.awaitility.Awaitility.await;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.redis.RedisKeys;

/**
 * Plays the coordinator with raw Redis commands: starts runs (their meta hash), adds tokens to task streams, and
 * reads completions through a consumer group of its own (never {@code wf.coordinators}).
 */
public final class WorkerHarness implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final String group = "test-" + UUID.randomUUID();
    private final Map<String, Map<String, String>> completions = new HashMap<>();
    private final Map<String, Integer> counts = new HashMap<>();
    private final Map<String, Integer> starts = new HashMap<>();

    public WorkerHarness(RedisClusterCommands<String, String> redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
        redis.xgroupCreate(StreamOffset.from(completions(), "$"), group, XGroupCreateArgs.Builder.mkstream());
    }

    public String completions() {
        return keys.completionsStream(0);
    }

    /** A run whose meta hash says RUNNING, on shard 0. */
    public UUID startRun() {
        UUID run = runOnShardZero();
        redis.hset(keys.run(run, 0).meta(), "status", "RUNNING");
        return run;
    }

    /**
     * A running run, on shard 0, whose meta names a stored workflow of the default tenant, as a started run's does:
     * for workers that look up the run's tenant (large outputs to CAS, agents from the registry).
     */
    public UUID startRunOfAWorkflow(JdbcClient jdbc) {
        UUID run = startRun();
        UUID workflow = UUID.randomUUID();
        jdbc.sql("insert into workflows (id, tenant_id, name, latest_version, created_by, created_at, updated_at) "
                + "values (?, 'default', ?, 1, 'test', now(), now())").params(workflow, "worker-" + workflow).update();
        jdbc.sql("insert into workflow_versions (workflow_id, version, dsl, ir, content_hash, author, created_at) "
                + "values (?, 1, '{}'::json, '{}'::json, 'test', 'test', now())").param(workflow).update();
        redis.hset(keys.run(run, 0).meta(), Map.of("workflow", workflow.toString(), "version", "1", "revision", "0",
                "input", "{}"));
        return run;
    }

    public UUID runOnShardZero() {
        UUID run;
        do {
            run = UUID.randomUUID();
        } while (keys.shardOf(run) != 0);
        return run;
    }

    public static String newTokenId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static Map<String, String> token(String token, UUID run, String type, String input, String config) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("token", token);
        fields.put("run", run.toString());
        fields.put("node", "node-" + token.substring(0, 6));
        fields.put("type", type);
        fields.put("iteration", "0");
        fields.put("attempt", "1");
        fields.put("input", input);
        fields.put("config", config);
        fields.put("emitted_at", Long.toString(System.currentTimeMillis()));
        return fields;
    }

    /** Adds a token to the type's stream on shard 0 and returns its id. */
    public String send(String type, UUID run, String input, String config) {
        String token = newTokenId();
        redis.xadd(keys.taskStream(type, 0), token(token, run, type, input, config));
        return token;
    }

    public Map<String, String> awaitCompletion(String token) {
        return awaitCompletion(token, Duration.ofSeconds(20));
    }

    public Map<String, String> awaitCompletion(String token, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(20)).until(() -> poll().containsKey(token));
        return completions.get(token);
    }

    /** All completions seen so far, by token id ({@code started} signals are counted apart). */
    public Map<String, Map<String, String>> poll() {
        List<StreamMessage<String, String>> read;
        do {
            read = redis.xreadgroup(Consumer.from(group, "reader"), XReadArgs.Builder.count(1000),
                    StreamOffset.lastConsumed(completions()));
            read.forEach(message -> {
                if ("started".equals(message.getBody().get("kind"))) {
                    starts.merge(message.getBody().get("token"), 1, Integer::sum);
                    return;
                }
                completions.put(message.getBody().get("token"), message.getBody());
                counts.merge(message.getBody().get("token"), 1, Integer::sum);
            });
        } while (read.size() == 1000);
        return completions;
    }

    /** How many {@code started} signals for a token have been seen so far. */
    public int startsOf(String token) {
        poll();
        return starts.getOrDefault(token, 0);
    }

    /** How many completions for a token have been seen so far. */
    public int completionsOf(String token) {
        poll();
        return counts.getOrDefault(token, 0);
    }

    @Override
    public void close() {
        redis.xgroupDestroy(completions(), group);
    }
}
