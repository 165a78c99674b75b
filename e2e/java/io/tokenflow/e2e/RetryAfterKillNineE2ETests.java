package io.tokenflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.SigningKey;
import tools.jackson.databind.json.JsonMapper;

/**
 * A retry's backoff survives the engine: a task fails transiently, the engine (a child JVM) is killed with
 * {@code kill -9} during the backoff and started again after the retry fell due, and the task comes back exactly once,
 * as attempt 2 with the same token. The worker is this JVM speaking only the Redis protocol (signing its signals).
 */
@SpringBootTest(properties = {"tokenflow.roles=web,live"})
@ActiveProfiles("test")
class RetryAfterKillNineE2ETests {

    private static final long BACKOFF_MS = 3_000;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired Environment environment;
    @Autowired WorkerKeys workerKeys;

    @RegisterExtension final EngineProcesses engines = new EngineProcesses();
    private RedisClient client;

    @BeforeEach
    void client() {
        client = RedisClient.create("redis://" + environment.getProperty("spring.data.redis.host", "127.0.0.1") + ":"
                + environment.getProperty("spring.data.redis.port", "6379") + "/"
                + environment.getProperty("spring.data.redis.database", "0"));
    }

    @AfterEach
    void stop() {
        client.shutdown();
    }

    @Test
    void aRetryDueWhileTheEngineWasDeadIsSentExactlyOnceAfterItsRestart() throws Exception {
        String type = "flaky_" + UUID.randomUUID().toString().substring(0, 6);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                + "updated_at) values ('default', ?, ?, 'task', '{}'::jsonb, 'test', now(), now())")
                .params(type, type).update();
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "retry-kill-%s", "nodes": [
                  {"id": "pay", "type": "%s", "retry": {"max_attempts": 3, "backoff_ms": %d, "jitter": 0}}]}"""
                .formatted(UUID.randomUUID().toString().substring(0, 8), type, BACKOFF_MS)), "test").name();
        UUID run = starting.start(new StartRunCommand(workflow, null, null, null, null), "test").id();
        Process first = engines.start("first");
        SigningKey key = SigningKey.of(workerKeys);

        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            String stream = "wf.tasks." + type + ":{0}";
            String group = "wf.workers." + type;
            redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group,
                    XGroupCreateArgs.Builder.mkstream(true));
            StreamMessage<String, String> attempt1 = take(redis, stream, group, Duration.ofSeconds(60)).get(0);
            Map<String, String> task = attempt1.getBody();
            assertThat(task).containsEntry("attempt", "1");
            redis.xadd("wf.completions:{0}", key.signed(Map.of("token", task.get("token"), "run", task.get("run"),
                    "node", "pay", "status", "failed", "attempt", "1", "worker", "py-1",
                    "error", "{\"message\":\"503 from the bank\",\"kind\":\"transient\"}")));
            redis.xack(stream, group, attempt1.getId());
            String retry = "retry " + run + " " + task.get("token") + " pay";
            await().atMost(Duration.ofSeconds(30)).until(() -> redis.zscore("wf.due:{0}", retry) != null);
            long dueAt = redis.zscore("wf.due:{0}", retry).longValue();
            first.destroyForcibly().waitFor();

            // the retry falls due while no engine runs
            await().atMost(Duration.ofMillis(BACKOFF_MS * 3)).until(() -> System.currentTimeMillis() > dueAt + 1_000);
            assertThat(take(redis, stream, group, Duration.ofMillis(500))).as("nothing released without an engine")
                    .isEmpty();
            engines.start("second");
            List<StreamMessage<String, String>> again = take(redis, stream, group, Duration.ofSeconds(60));
            assertThat(again).hasSize(1);
            assertThat(again.get(0).getBody()).containsEntry("token", task.get("token")).containsEntry("attempt", "2");
            assertThat(take(redis, stream, group, Duration.ofSeconds(2))).as("released once").isEmpty();
            redis.xadd("wf.completions:{0}", key.signed(Map.of("token", task.get("token"), "run", task.get("run"),
                    "node", "pay", "status", "completed", "output", "{\"paid\":true}", "worker", "py-1")));
            redis.xack(stream, group, again.get(0).getId());
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> "COMPLETED".equals(jdbc.sql("select status from runs "
                + "where id = ?").param(run).query(String.class).optional().orElse(null)));
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'node.retrying'")
                .param(run).query(Long.class).single()).isOne();
    }

    /** Tokens that arrive within {@code wait} (blocks until the first, then takes what is there). */
    private static List<StreamMessage<String, String>> take(RedisCommands<String, String> redis, String stream,
                                                           String group, Duration wait) {
        List<StreamMessage<String, String>> taken = redis.xreadgroup(Consumer.from(group, "py-1"),
                XReadArgs.Builder.count(10).block(wait), XReadArgs.StreamOffset.lastConsumed(stream));
        return taken == null ? List.of() : new ArrayList<>(taken);
    }
}
