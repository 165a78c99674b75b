package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.test.context.support.WithMockUser;

import io.tokenflow.IntegrationTest;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.support.SigningKey;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.support.OutsiderRedis;
import tools.jackson.databind.json.JsonMapper;

/**
 * An external worker for a custom node type, written with raw Redis commands only (its own client, none of
 * Tokenflow's worker code), exactly as docs/worker-protocol.md describes.
 */
@IntegrationTest
class ExternalWorkerIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired WorkerKeys workerKeys;
    @Autowired JdbcClient jdbc;
    @Autowired Environment environment;
    @Autowired RedisKeys keys;

    @Test
    @WithMockUser(roles = "ADMIN")
    void runsACustomNodeTypeOnAWorkerThatOnlySpeaksRedis() throws Exception {
        String type = "geocode_" + UUID.randomUUID().toString().substring(0, 6);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                        + "updated_at) values ('default', :name, 'Geocode', 'task', cast(:schema as jsonb), 'test', "
                        + "now(), now())")
                .param("name", type).param("schema", "{\"type\": \"object\", \"required\": [\"provider\"]}").update();
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "%s-flow", "nodes": [
                  {"id": "where", "type": "%s", "config": {"provider": "osm"}, "input": {"city": "${workflow.input.city}"}},
                  {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "where", "to": "after"}]}""".formatted(type, type)), "test").name();
        UUID run = engine.start(workflow, "{\"city\": \"Oslo\"}");

        try (OutsiderRedis outsider = OutsiderRedis.connect(environment)) {
            RedisClusterCommands<String, String> redis = outsider.commands();
            // the run's shard: the {N} of the stream its tokens come on, and of the completions stream they go back on
            String shard = "{" + keys.shardOf(run) + "}";
            String stream = "wf.tasks." + type + ":" + shard;
            String group = "wf.workers." + type;
            try {
                redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group, XGroupCreateArgs.Builder.mkstream(true));
            } catch (RedisBusyException exists) {
                // the group may exist already
            }
            List<StreamMessage<String, String>> tokens = redis.xreadgroup(Consumer.from(group, "py-worker-1"),
                    XReadArgs.Builder.count(1).block(Duration.ofSeconds(10)), XReadArgs.StreamOffset.lastConsumed(stream));
            assertThat(tokens).hasSize(1);
            Map<String, String> token = tokens.get(0).getBody();
            assertThat(token).containsEntry("node", "where").containsEntry("type", type)
                    .containsEntry("input", "{\"city\":\"Oslo\"}").containsEntry("config", "{\"provider\":\"osm\"}");
            SigningKey key = SigningKey.of(workerKeys);
            Map<String, String> started = key.signed(Map.of("kind", "started", "token", token.get("token"), "run",
                    token.get("run"), "node", token.get("node"), "worker", "py-worker-1", "started_at",
                    Long.toString(System.currentTimeMillis())));
            redis.xadd("wf.completions:" + shard, started);
            redis.xadd("wf.completions:" + shard, started);
            await().atMost(Duration.ofSeconds(10)).until(() -> "RUNNING".equals(engine.nodeStatuses(run).get("where")));
            redis.xadd("wf.completions:" + shard, key.signed(Map.of("token", token.get("token"), "run",
                    token.get("run"), "node", token.get("node"), "status", "completed", "output",
                    "{\"lat\":59.9,\"lon\":10.7}", "worker", "py-worker-1")));
            redis.xack(stream, group, tokens.get(0).getId());
        }
        engine.awaitStatus(run, "COMPLETED");
        assertThat(engine.output(run, "after")).isEqualTo(JsonMapper.builder().build().readTree("{\"lat\":59.9,\"lon\":10.7}"));
        await().atMost(Duration.ofSeconds(5)).until(() -> engine.nodeStatuses(run).get("where").equals("COMPLETED"));
        assertThat(jdbc.sql("select node_id || ' ' || (data->>'worker') from event_log where run_id = :run and "
                + "event_type = 'node.started'").param("run", run).query(String.class).list())
                .containsExactly("where py-worker-1");
    }

    @Test
    void builtInWorkersReportTheStartOfSlowWorkOnly() {
        EngineHarness engine = new EngineHarness(creating, starting, jdbc);
        String workflow = creating.create(JsonMapper.builder().build().readTree("""
                {"name": "slow-start-%s", "nodes": [
                  {"id": "slow", "type": "function", "config": {"function": "sleep", "args": {"ms": 800}}},
                  {"id": "quick", "type": "function", "config": {"function": "noop"}}],
                 "edges": [{"from": "slow", "to": "quick"}]}""".formatted(UUID.randomUUID())), "test").name();
        UUID run = engine.start(workflow, "{}");

        engine.awaitStatus(run, "COMPLETED");
        List<String> slowEvents = jdbc.sql("select event_type from event_log where run_id = :run and node_id = 'slow' "
                + "order by seq").param("run", run).query(String.class).list();
        assertThat(slowEvents).containsSubsequence("token.emitted", "node.started", "node.completed");
        assertThat(engine.eventTypes(run)).containsOnlyOnce("node.started");
    }
}
