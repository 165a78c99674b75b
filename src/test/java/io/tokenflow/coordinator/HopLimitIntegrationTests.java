package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.engine.routing.Router;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import io.tokenflow.tracing.RunSpans;
import tools.jackson.databind.json.JsonMapper;

/**
 * The hop limit (tokenflow.run-limits.max-hops) counted by the route step: completions up to the limit are routed,
 * the one past it fails the run with the limit as the reason. Completions are routed by a router built with a limit
 * of 3 from the application's own parts, so the shared context keeps its default limits.
 */
@IntegrationTest
class HopLimitIntegrationTests {

    /** A node type of this test's own, so that no built-in worker takes its tokens and no other test sees them. */
    private final String type = "hop_limit_" + UUID.randomUUID().toString().substring(0, 6);

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    @Autowired RunPlans plans;
    @Autowired LuaScripts scripts;
    @Autowired Payloads payloads;
    @Autowired RejectedSignals rejected;
    @Autowired NodeRetries retries;
    @Autowired DeadLetters deadLetters;
    @Autowired Router router;
    @Autowired TokenEmitter emitter;
    @Autowired Compensations compensations;
    @Autowired MapItems maps;
    @Autowired RunSpans spans;
    @Autowired Clock clock;
    @Autowired JdbcClient jdbc;
    JsonMapper json = JsonMapper.builder().build();

    @Test
    void routesUpToTheLimitAndFailsTheRunAtTheHopPastIt() {
        CompletionRouter limited = new CompletionRouter(redis, keys, plans, scripts, payloads, rejected, retries,
                deadLetters, router, emitter, new RunLimits(3, 0, 0, 0), compensations, maps, spans, clock);
        String name = "hop-limit-" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                + "updated_at) values ('default', :name, 'Hop limit test', 'task', '{}', 'test', now(), now())")
                .param("name", type).update();
        creating.create(json.readTree("""
                {"name": "%s", "nodes": [{"id": "n1", "type": "%s"}, {"id": "n2", "type": "%s"},
                  {"id": "n3", "type": "%s"}, {"id": "n4", "type": "%s"}, {"id": "n5", "type": "%s"}],
                 "edges": [{"from": "n1", "to": "n2"}, {"from": "n2", "to": "n3"}, {"from": "n3", "to": "n4"},
                           {"from": "n4", "to": "n5"}]}""".formatted(name, type, type, type, type, type)), "test");
        UUID run = starting.start(new StartRunCommand(name, null, null, json.readTree("{}"), null), "test").id();
        RedisKeys.RunKeys runKeys = keys.run(run, keys.shardOf(run));

        for (int hop = 1; hop <= 3; hop++) {
            assertThat(limited.route(completionOf(takeToken(run)), keys.shardOf(run))).isEqualTo(StepOutcome.APPLIED);
            assertThat(redis.commands().hget(runKeys.meta(), "hops")).isEqualTo(Integer.toString(hop));
            assertThat(redis.commands().hget(runKeys.meta(), "status")).isEqualTo("RUNNING");
        }
        assertThat(limited.route(completionOf(takeToken(run)), keys.shardOf(run))).isEqualTo(StepOutcome.APPLIED);

        assertThat(redis.commands().hget(runKeys.meta(), "status")).isEqualTo("FAILED");
        assertThat(redis.commands().get(runKeys.counter())).isEqualTo("0");
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(column(run, "status")));
        assertThat(column(run, "error")).isEqualTo("The run went past its limit of 3 hops "
                + "(tokenflow.run-limits.max-hops)");
        // every event numbered once, in order, with none missing: the step counts seq on from what it read
        assertThat(jdbc.sql("select seq from event_log where run_id = :run order by seq").param("run", run)
                .query(Long.class).list()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(jdbc.sql("select event_type from event_log where run_id = :run order by seq desc limit 2")
                .param("run", run).query(String.class).list()).containsExactly("run.failed", "node.completed");
    }

    private String column(UUID run, String name) {
        return jdbc.sql("select " + name + " from runs where id = :run").param("run", run).query(String.class)
                .optional().orElse(null);
    }

    private StreamMessage<String, String> takeToken(UUID run) {
        String stream = keys.taskStream(type, keys.shardOf(run));
        try {
            redis.commands().xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), keys.workerGroup(type),
                    XGroupCreateArgs.Builder.mkstream(true));
        } catch (RedisBusyException exists) {
            // created by an earlier call
        }
        List<StreamMessage<String, String>> taken = redis.commands().xreadgroup(Consumer.from(keys.workerGroup(type),
                "hop-limit-test"), XReadArgs.Builder.count(1), XReadArgs.StreamOffset.lastConsumed(stream));
        assertThat(taken).as("a token on " + stream).hasSize(1);
        return taken.get(0);
    }

    private static Signal.Completion completionOf(StreamMessage<String, String> token) {
        Map<String, String> body = token.getBody();
        return new Signal.Completion(token.getId(), body.get("token"), UUID.fromString(body.get("run")),
                body.get("node"), true, "{}", null, null, "test-worker", null, null, null);
    }
}
