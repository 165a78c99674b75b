package io.tokenflow.workers.runtime;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sun.net.httpserver.HttpServer;

import io.lettuce.core.Range;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.types.BuiltInNodeTypes;
import io.tokenflow.engine.types.NodeTypeSpec;
import io.tokenflow.quarantine.Quarantine;
import io.tokenflow.quarantine.QuarantinedEntry;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.workers.TaskHandlers;
import io.tokenflow.workers.WorkerHarness;
import io.tokenflow.workers.WorkerIntegrationTest;
import tools.jackson.databind.JsonNode;

/** What the runtime does around the handlers: skipping, malformed tokens, large payloads, the handler registry. */
@WorkerIntegrationTest
class WorkerRuntimeIntegrationTests {

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    @Autowired
    CasStore cas;

    @Autowired
    TaskHandlers handlers;

    @Autowired
    WorkerRuntime runtime;

    @Autowired
    Quarantine quarantine;

    @Autowired
    JdbcClient jdbc;

    private RedisClusterCommands<String, String> redis;
    private WorkerHarness harness;

    @BeforeEach
    void openHarness() {
        redis = connections.commands();
        harness = new WorkerHarness(redis, keys);
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void everyBuiltInWorkerTypeHasAHandler() {
        for (NodeTypeSpec type : BuiltInNodeTypes.get().all()) {
            if (type.worker() != null && !TaskHandlers.SERVED_ELSEWHERE.contains(type.worker())) {
                assertThat(handlers.find(type.worker())).as("handler for worker type " + type.worker()).isPresent();
            }
        }
        assertThat(handlers.types()).containsExactlyInAnyOrder("function", "http", "transform", "filter",
                "aggregate", "agent", "http_agent");
    }

    @Test
    void skipsTheTokenOfACancelledRun() {
        UUID run = harness.startRun();
        redis.hset(keys.run(run, 0).meta(), "status", "CANCELLED");

        assertSkipped(run);
    }

    @Test
    void skipsTheTokenOfARunThatIsGone() {
        assertSkipped(harness.runOnShardZero());
    }

    /** An http task has side effects: for a cancelled run it is not even started (echo, side-effect free, may be). */
    @Test
    void neverCallsOutForACancelledRun() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            calls.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            String config = "{\"url\":\"http://127.0.0.1:" + server.getAddress().getPort() + "/hook\"}";
            UUID cancelled = harness.startRun();
            redis.hset(keys.run(cancelled, 0).meta(), "status", "CANCELLED");
            String stream = keys.taskStream("http", 0);
            String skipped = WorkerHarness.newTokenId();
            String id = redis.xadd(stream, WorkerHarness.token(skipped, cancelled, "http", "{}", config));
            await().atMost(Duration.ofSeconds(10)).until(() -> redis.xrange(stream, Range.create(id, id)).isEmpty());

            String called = harness.send("http", harness.startRun(), "{}", config);
            harness.awaitCompletion(called);

            assertThat(harness.poll()).doesNotContainKey(skipped);
            assertThat(calls.get()).as("only the live run's task called out").isEqualTo(1);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void reportsAMalformedTokenAsAPermanentFailure() {
        UUID run = harness.startRun();
        String token = harness.send("function", run, "{not json", "{\"function\":\"echo\"}");

        Map<String, String> completion = harness.awaitCompletion(token);

        assertThat(completion).containsEntry("status", "failed");
        JsonNode error = json(completion.get("error"));
        assertThat(error.get("kind").stringValue()).isEqualTo("permanent");
        assertThat(error.get("code").stringValue()).isEqualTo("malformed_token");
        assertThat(error.get("message").stringValue()).contains("input to be JSON text");
        QuarantinedEntry entry = quarantined(keys.taskStream("function", 0), token);
        assertThat(entry.runId()).isEqualTo(run);
        assertThat(entry.raw()).contains("{not json");
        assertThat(entry.reason()).contains("input to be JSON text");
    }

    /** The quarantined entry of the stream whose raw text holds {@code text}, once it is there. */
    private QuarantinedEntry quarantined(String stream, String text) {
        return await().atMost(Duration.ofSeconds(10)).until(() -> quarantine.newest().stream()
                .filter(entry -> entry.stream().equals(stream) && entry.raw().contains(text)).findFirst()
                .orElse(null), Objects::nonNull);
    }

    @Test
    void setsATokenWithoutItsIdentifiersAsideInTheQuarantineWithItsRawText() {
        String stream = keys.taskStream("function", 0);
        UUID run = harness.startRun();
        String id = redis.xadd(stream, Map.of("run", run.toString(), "input", "{\"by\": \"hand\"}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> redis.xrange(stream, Range.create(id, id)).isEmpty());
        QuarantinedEntry entry = quarantined(stream, "hand");
        assertThat(entry.entryId()).isEqualTo(id);
        assertThat(entry.runId()).isEqualTo(run);
        assertThat(entry.raw()).contains("\"input\"").contains("hand");
        assertThat(entry.reason()).startsWith("Expected a token with token, run and node fields");
    }

    @Test
    void sendsALargeOutputThroughContentAddressedStorage() {
        UUID run = harness.startRunOfAWorkflow(jdbc);
        String blob = "x".repeat(70 * 1024);
        String token = harness.send("function", run, "{}",
                "{\"function\":\"set\",\"args\":{\"blob\":\"" + blob + "\"}}");

        Map<String, String> completion = harness.awaitCompletion(token);

        assertThat(completion).containsEntry("status", "completed").doesNotContainKey("output");
        assertThat(CasStore.isReference(completion.get("output_ref"))).isTrue();
        assertThat(cas.getJson(completion.get("output_ref")).get("blob").stringValue()).isEqualTo(blob);
        assertThat(cas.owns(CurrentTenant.DEFAULT, completion.get("output_ref"))).as("stored for the run's tenant")
                .isTrue();
    }

    @Test
    void resolvesAnInputReference() {
        UUID run = harness.startRun();
        String reference = cas.putJson(CurrentTenant.DEFAULT, json("{\"stored\":[1,2,3]}"));
        String token = WorkerHarness.newTokenId();
        Map<String, String> fields = WorkerHarness.token(token, run, "function", "{}", "{\"function\":\"echo\"}");
        fields.remove("input");
        fields.put("input_ref", reference);
        redis.xadd(keys.taskStream("function", 0), fields);

        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json("{\"stored\":[1,2,3]}"));
    }

    @Test
    void stopsGracefullyAndStartsAgain() {
        runtime.stop();
        assertThat(runtime.isRunning()).isFalse();

        runtime.start();
        String token = harness.send("function", harness.startRun(), "{\"back\":true}", "{\"function\":\"echo\"}");

        assertThat(runtime.isRunning()).isTrue();
        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json("{\"back\":true}"));
    }

    private void assertSkipped(UUID run) {
        String stream = keys.taskStream("function", 0);
        String token = WorkerHarness.newTokenId();
        String id = redis.xadd(stream, WorkerHarness.token(token, run, "function", "{}", "{\"function\":\"echo\"}"));

        await().atMost(Duration.ofSeconds(10)).until(() -> redis.xrange(stream, Range.create(id, id)).isEmpty());
        assertThat(harness.poll()).doesNotContainKey(token);
        assertThat(redis.xpending(stream, keys.workerGroup("function")).getCount()).isZero();
    }
}
