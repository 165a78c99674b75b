package io.tokenflow.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.support.SigningKey;
import io.tokenflow.signing.WorkerKeys;
import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.support.OutsiderRedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dead-letter queue as an operator meets it: tasks of a node with {@code on_failure: dlq} that fail with no retry
 * left park their run; the entry is listed over the API; reprocessing (with an edited input) sends the same token
 * back to the workers as attempt 1 and the run completes; discarding fails the run. The worker speaks only Redis.
 */
@IntegrationTest
@AutoConfigureMockMvc
class DeadLetterQueueIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired Environment environment;
    @Autowired RunTerminator terminator;
    @Autowired RedisKeys keys;
    @Autowired WorkerKeys workerKeys;

    private OutsiderRedis outsider;
    private String type;
    private String workflow;

    @BeforeEach
    void workflowAndWorker() throws Exception {
        outsider = OutsiderRedis.connect(environment);
        type = "ledger_" + UUID.randomUUID().toString().substring(0, 6);
        jdbc.sql("insert into node_types (tenant_id, name, display_name, kind, config_schema, created_by, created_at, "
                + "updated_at) values ('default', ?, ?, 'task', '{}'::jsonb, 'test', now(), now())")
                .params(type, type).update();
        workflow = "dlq-" + UUID.randomUUID().toString().substring(0, 8);
        call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON).content("""
                {"name": "%s", "nodes": [
                  {"id": "book", "type": "%s", "input": {"amount": "${workflow.input.amount}"},
                   "retry": {"max_attempts": 2, "backoff_ms": 20, "jitter": 0}, "on_failure": {"action": "dlq"}},
                  {"id": "notify", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "book", "to": "notify"}]}""".formatted(workflow, type)))
                .andExpect(status().isCreated());
    }

    @AfterEach
    void disconnect() {
        outsider.close();
    }

    @Test
    void exhaustedRetriesParkTheRunAndReprocessingWithAnEditedInputCompletesIt() throws Exception {
        UUID run = start();
        StreamMessage<String, String> first = take();
        fail(first, "transient");
        fail(take(), "transient");
        JsonNode entry = awaitEntry(run);
        assertThat(entry.get("attempts").asInt()).isEqualTo(2);
        assertThat(entry.get("errorKind").asString()).isEqualTo("TRANSIENT");
        assertThat(entry.get("errorCode").asString()).isEqualTo("ledger_locked");
        assertThat(entry.at("/input/amount").asInt()).isEqualTo(5);
        assertThat(runStatus(run)).isEqualTo("RUNNING");
        // parked runs are not idle: the inactivity timeout spares them
        assertThat(terminator.failIdle(run, Instant.now().plusSeconds(3600), "idle")).isFalse();

        call(post("/api/v1/dlq/" + entry.get("id").asString() + "/reprocess").contentType(MediaType.APPLICATION_JSON)
                .content("{\"input\": {\"amount\": 7}}")).andExpect(status().isAccepted());
        StreamMessage<String, String> again = take();
        assertThat(again.getBody()).containsEntry("token", first.getBody().get("token"))
                .containsEntry("attempt", "1").containsEntry("input", "{\"amount\":7}");
        complete(again);

        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(runStatus(run)));
        await().atMost(Duration.ofSeconds(10)).until(() -> "REQUEUED".equals(read(get("/api/v1/dlq/"
                + entry.get("id").asString())).path("resolution").asString(null)));
        assertThat(read(get("/api/v1/dlq/" + entry.get("id").asString())).get("resolvedBy").asString())
                .isEqualTo("olga");
        assertThat(read(get("/api/v1/runs/" + run + "/replay")).get("status").asString()).isEqualTo("COMPLETED");
        call(post("/api/v1/dlq/" + entry.get("id").asString() + "/reprocess")).andExpect(status().isConflict());
    }

    @Test
    void aTaskReprocessedWithAnEditedInputIsSentAgainWithThatInputWhenRedisLosesItsRun() throws Exception {
        UUID run = start();
        fail(take(), "permanent");
        JsonNode entry = awaitEntry(run);
        call(post("/api/v1/dlq/" + entry.get("id").asString() + "/reprocess").contentType(MediaType.APPLICATION_JSON)
                .content("{\"input\": {\"amount\": 9}}")).andExpect(status().isAccepted());
        StreamMessage<String, String> sent = take();
        assertThat(sent.getBody()).containsEntry("input", "{\"amount\":9}");
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = 'node.reprocessed'").param(run).query(Long.class).single() == 1);

        outsider.commands().del(keys.run(run).all().toArray(String[]::new));

        // the supervisor's next check finds the run lost and rebuilds it from the log
        StreamMessage<String, String> resent = take(Duration.ofSeconds(40));
        assertThat(resent.getBody()).containsEntry("token", sent.getBody().get("token")).containsEntry("attempt", "1")
                .containsEntry("input", "{\"amount\":9}");
        complete(resent);
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(runStatus(run)));
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'run.recovered'")
                .param(run).query(Long.class).single()).isOne();
    }

    @Test
    void aPermanentFailureParksAtOnceAndDiscardingFailsTheRun() throws Exception {
        UUID run = start();
        fail(take(), "permanent");
        JsonNode entry = awaitEntry(run);
        assertThat(entry.get("attempts").asInt()).isEqualTo(1);

        call(post("/api/v1/dlq/" + entry.get("id").asString() + "/discard")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(runStatus(run)));
        assertThat(read(get("/api/v1/runs/" + run)).get("error").asString()).contains("discarded by olga");
        await().atMost(Duration.ofSeconds(10)).until(() -> "DISCARDED".equals(read(get("/api/v1/dlq/"
                + entry.get("id").asString())).path("resolution").asString(null)));
        assertThat(read(get("/api/v1/dlq?status=resolved&workflow=" + workflow))).hasSize(1);
        assertThat(read(get("/api/v1/dlq?workflow=" + workflow))).isEmpty();
    }

    @Test
    void aLateCompletionOfAParkedTaskOrTheEndOfItsRunResolvesTheEntry() throws Exception {
        UUID late = start();
        StreamMessage<String, String> token = take();
        fail(token, "permanent");
        JsonNode lateEntry = awaitEntry(late);
        complete(token);   // the slow worker's answer after all
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(runStatus(late)));
        await().atMost(Duration.ofSeconds(10)).until(() -> "COMPLETED".equals(read(get("/api/v1/dlq/"
                + lateEntry.get("id").asString())).path("resolution").asString(null)));

        UUID cancelled = start();
        fail(take(), "permanent");
        JsonNode cancelledEntry = awaitEntry(cancelled);
        call(post("/api/v1/runs/" + cancelled + "/cancel")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(10)).until(() -> "RUN_ENDED".equals(read(get("/api/v1/dlq/"
                + cancelledEntry.get("id").asString())).path("resolution").asString(null)));
        assertThat(read(get("/api/v1/dlq?workflow=" + workflow))).isEmpty();
    }

    @Test
    void refusesMovesOnUnknownEntriesAndBadInput() throws Exception {
        call(post("/api/v1/dlq/" + UUID.randomUUID() + "/reprocess")).andExpect(status().isNotFound());
        call(get("/api/v1/dlq?status=sometimes")).andExpect(status().isBadRequest());
        UUID run = start();
        fail(take(), "permanent");
        JsonNode entry = awaitEntry(run);
        call(post("/api/v1/dlq/" + entry.get("id").asString() + "/reprocess").contentType(MediaType.APPLICATION_JSON)
                .content("{\"input\": {\"note\": \"a\\u0000\"}}")).andExpect(status().isUnprocessableContent());
        mvc.perform(post("/api/v1/dlq/" + entry.get("id").asString() + "/discard")
                .with(user("vic").roles("APPROVER")).with(csrf())).andExpect(status().isForbidden());
    }

    private UUID start() throws Exception {
        JsonNode started = JSON.readTree(call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"amount\": 5}}"))
                .andExpect(status().isCreated()).andReturn().getResponse().getContentAsString());
        return UUID.fromString(started.get("id").asString());
    }

    private JsonNode awaitEntry(UUID run) throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> read(get("/api/v1/dlq?workflow=" + workflow)).size() > 0);
        JsonNode entries = read(get("/api/v1/dlq?workflow=" + workflow));
        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).get("runId").asString()).isEqualTo(run.toString());
        return entries.get(0);
    }

    private StreamMessage<String, String> take() {
        return take(Duration.ofSeconds(10));
    }

    /** Takes the next token of the type from any shard's stream (each read on its own, as on a Redis Cluster). */
    private StreamMessage<String, String> take(Duration atMost) {
        RedisClusterCommands<String, String> redis = outsider.commands();
        String group = "wf.workers." + type;
        List<String> streams = IntStream.range(0, keys.shards()).mapToObj(shard -> keys.taskStream(type, shard))
                .toList();
        for (String stream : streams) {
            try {
                redis.xgroupCreate(XReadArgs.StreamOffset.from(stream, "0"), group,
                        XGroupCreateArgs.Builder.mkstream(true));
            } catch (RedisBusyException exists) {
                // created before
            }
        }
        long until = System.nanoTime() + atMost.toNanos();
        do {
            for (String stream : streams) {
                List<StreamMessage<String, String>> taken = redis.xreadgroup(Consumer.from(group, "w1"),
                        XReadArgs.Builder.count(1).block(Duration.ofMillis(50)),
                        XReadArgs.StreamOffset.lastConsumed(stream));
                if (taken != null && !taken.isEmpty()) {
                    redis.xack(stream, group, taken.get(0).getId());
                    return taken.get(0);
                }
            }
        } while (System.nanoTime() < until);
        throw new AssertionError("Expected a token for " + type + " within " + atMost + ", but none came");
    }

    private void fail(StreamMessage<String, String> token, String kind) {
        Map<String, String> body = token.getBody();
        outsider.commands().xadd(OutsiderRedis.completionsStreamOf(token), SigningKey.of(workerKeys).signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "failed", "attempt", body.get("attempt"), "worker", "w1",
                "error", "{\"message\":\"ledger locked\",\"kind\":\"" + kind + "\",\"code\":\"ledger_locked\"}")));
    }

    private void complete(StreamMessage<String, String> token) {
        Map<String, String> body = token.getBody();
        outsider.commands().xadd(OutsiderRedis.completionsStreamOf(token), SigningKey.of(workerKeys).signed(Map.of(
                "token", body.get("token"), "run", body.get("run"),
                "node", body.get("node"), "status", "completed", "output", "{\"booked\":true}", "worker", "w1")));
    }

    private String runStatus(UUID run) throws Exception {
        return read(get("/api/v1/runs/" + run)).get("status").asString();
    }

    private JsonNode read(MockHttpServletRequestBuilder request) throws Exception {
        return JSON.readTree(call(request).andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    private ResultActions call(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")).with(csrf()));
    }
}
