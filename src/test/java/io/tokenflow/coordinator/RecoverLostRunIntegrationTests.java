package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import io.lettuce.core.StreamMessage;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.ResultMatcher;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs whose Redis state was lost, rebuilt from the event log as an operator and the supervisor do it: workflows and
 * runs made over the REST API, tasks taken and answered by external workers speaking only the Redis protocol of
 * docs/worker-protocol.md, Redis state deleted or the whole database flushed in between.
 */
class RecoverLostRunIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RedisKeys keys;
    @Autowired DataSource dataSource;

    @Test
    void aRunLostTwiceIsRecoveredOnDemandAndItsTasksInFlightComeBackUnderTheirOwnTokens() throws Exception {
        String fetch = api.customType("fetch");
        String leg = api.customType("leg");
        String workflow = api.created("""
                {"name": "recover-run-%s", "nodes": [
                  {"id": "fetch", "type": "%s", "retry": {"max_attempts": 3, "backoff_ms": 600000, "jitter": 0}},
                  {"id": "flight", "type": "%s"},
                  {"id": "hotel", "type": "%s"},
                  {"id": "book", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "fetch", "to": "flight"}, {"from": "fetch", "to": "hotel"},
                           {"from": "flight", "to": "book"}, {"from": "hotel", "to": "book"}]}"""
                .formatted(UUID.randomUUID(), fetch, leg, leg));
        UUID run = api.start(workflow, "{\"trip\": \"Porto\"}");
        ManualWorker fetcher = api.worker(fetch);
        StreamMessage<String, String> first = fetcher.takeOne(Duration.ofSeconds(10));
        fetcher.failTransiently(first, "upstream busy");
        awaitLogged(run, "node.retrying");
        // the retry waits ten minutes; Redis loses the run meanwhile
        loseRedisState(run);

        admin(post("/api/v1/runs/" + run + "/recover")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.reason").value("Redis held no state of the run"))
                .andExpect(jsonPath("$.resentTokens[0]").value(first.getBody().get("token")));
        StreamMessage<String, String> resent = fetcher.takeOne(Duration.ofSeconds(10));
        assertThat(resent.getBody()).containsEntry("token", first.getBody().get("token")).containsEntry("attempt", "2")
                .containsEntry("input", "{\"trip\":\"Porto\"}");
        fetcher.complete(resent, "{\"city\": \"Porto\"}");

        ManualWorker legs = api.worker(leg);
        List<StreamMessage<String, String>> taken = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> taken.addAll(legs.take()) && taken.size() == 2
                || taken.size() == 2);
        StreamMessage<String, String> hotel = taken.stream().filter(t -> t.getBody().get("node").equals("hotel"))
                .findFirst().orElseThrow();
        StreamMessage<String, String> flight = taken.get(0) == hotel ? taken.get(1) : taken.get(0);
        legs.complete(hotel, "{\"room\": 7}");
        awaitLogged(run, "join.arrived");
        loseRedisState(run);

        admin(post("/api/v1/runs/" + run + "/recover")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.joinArrivals").value(1))
                .andExpect(jsonPath("$.resentTokens[0]").value(flight.getBody().get("token")));
        StreamMessage<String, String> flightAgain = legs.takeOne(Duration.ofSeconds(10));
        assertThat(flightAgain.getBody()).containsEntry("token", flight.getBody().get("token"))
                .containsEntry("node", "flight").containsEntry("input", "{\"city\":\"Porto\"}");
        // the first copy's completion is routed; the copy sent again is then a repeat the coordinator absorbs
        legs.complete(flight, "{\"seat\": \"2C\"}");
        legs.complete(flightAgain, "{\"seat\": \"2C\"}");

        api.awaitStatus(run, "COMPLETED");
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.at("/outputs/book/hotel/room").asInt()).isEqualTo(7);
        assertThat(detail.at("/outputs/book/flight/seat").asString()).isEqualTo("2C");
        assertThat(eventTypes(run)).containsSubsequence("node.retrying", "run.recovered", "node.completed",
                "join.arrived", "run.recovered", "node.completed", "join.completed", "run.completed");
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'node.completed'")
                .param(run).query(Long.class).single()).isEqualTo(4);
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(replay.get("nodes")).extracting(node -> node.get("node").asString() + " "
                + node.get("status").asString()).containsExactlyInAnyOrder("fetch COMPLETED", "flight COMPLETED",
                "hotel COMPLETED", "book COMPLETED");
    }

    @Test
    void afterRedisIsFlushedTheSupervisorRecoversEveryRunningRunAndNewRunsGoOn() throws Exception {
        String step = api.customType("step");
        String chain = api.created("""
                {"name": "recover-chain-%s", "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "echo"}},
                  {"id": "b", "type": "%s"},
                  {"id": "c", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]}""".formatted(UUID.randomUUID(), step));
        String approval = api.created("""
                {"name": "recover-approval-%s", "nodes": [
                  {"id": "ask", "type": "human", "human": {"approvers": ["olga"], "title": "Ship it?"}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "ask", "to": "done"}]}""".formatted(UUID.randomUUID()));
        UUID working = api.start(chain, "{\"n\": 1}");
        UUID waiting = api.start(approval, "{\"box\": 3}");
        ManualWorker worker = api.worker(step);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        awaitLogged(working, "token.emitted", 2);
        awaitLogged(waiting, "approval.requested");

        api.redis().flushdb();

        awaitLogged(working, "run.recovered");
        awaitLogged(waiting, "run.recovered");
        assertThat(jdbc.sql("select data->>'by' from event_log where run_id = ? and event_type = 'run.recovered'")
                .param(working).query(String.class).single()).isEqualTo("system");
        ManualWorker again = api.worker(step);
        StreamMessage<String, String> resent = again.takeOne(Duration.ofSeconds(10));
        assertThat(resent.getBody()).containsEntry("token", token.getBody().get("token")).containsEntry("node", "b");
        again.complete(resent, "{\"b\": true}");
        api.awaitStatus(working, "COMPLETED");
        String pending = jdbc.sql("select id::text from approvals where run_id = ? and status = 'PENDING'")
                .param(waiting).query(String.class).single();
        api.call(post("/api/v1/approvals/" + pending + "/decide").contentType(MediaType.APPLICATION_JSON)
                .content("{\"decision\": \"approve\"}")).andExpect(status().isOk());
        api.awaitStatus(waiting, "COMPLETED");
        UUID fresh = api.start(approval, "{\"box\": 4}");
        awaitLogged(fresh, "approval.requested");
        assertThat(eventTypes(fresh)).doesNotContain("run.recovered");
    }

    @Test
    void aRunRedisStillHoldsIsNotRecoveredAndOnlyAnAdminMayAsk() throws Exception {
        String step = api.customType("step");
        String workflow = api.created("""
                {"name": "recover-refused-%s", "nodes": [{"id": "step", "type": "%s"}]}"""
                .formatted(UUID.randomUUID(), step));
        UUID run = api.start(workflow, "{}");
        awaitLogged(run, "token.emitted");

        api.call(post("/api/v1/runs/" + run + "/recover")).andExpect(status().isForbidden());
        admin(post("/api/v1/runs/" + run + "/recover")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("to be lost, but Redis holds it")));
        admin(post("/api/v1/runs/" + UUID.randomUUID() + "/recover")).andExpect(status().isNotFound());
        ManualWorker worker = api.worker(step);
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{}");
        api.awaitStatus(run, "COMPLETED");
        admin(post("/api/v1/runs/" + run + "/recover")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("not running")));
    }

    @Test
    void aLostRunThatCannotBeRebuiltIsFailedWithTheReason() throws Exception {
        String step = api.customType("step");
        String workflow = api.created("""
                {"name": "recover-broken-%s", "nodes": [{"id": "step", "type": "%s"}], "edges": []}"""
                .formatted(UUID.randomUUID(), step));
        UUID run = api.start(workflow, "{}");
        api.call(post("/api/v1/runs/" + run + "/patch").contentType("application/json-patch+json")
                .header("If-Match", "\"0\"").content("""
                        [{"op": "add", "path": "/nodes/-", "value": {"id": "audit", "type": "function",
                          "config": {"function": "echo"}}},
                         {"op": "add", "path": "/edges/-", "value": {"from": "step", "to": "audit"}}]"""))
                .andExpect(status().isOk());
        awaitLogged(run, "run.patched");
        // the run's patched workflow is gone with its Redis state: nothing is left to route it by
        jdbc.sql("delete from run_ir_revisions where run_id = ? and revision = 1").param(run).update();
        loseRedisState(run);

        api.awaitStatus(run, "FAILED");
        assertThat(api.read(get("/api/v1/runs/" + run)).get("error").asString())
                .startsWith("Expected to rebuild the run from its event log after Redis lost its state, but ")
                .contains("revision 1");
        assertThat(eventTypes(run)).endsWith("run.failed").doesNotContain("run.recovered");
    }

    @Test
    void aRunRedisLostBeforeItsStartWasLoggedIsStartedAgainFromTheRowItsStartWrote() throws Exception {
        String intake = api.customType("intake");
        String workflow = api.created("""
                {"name": "recover-unlogged-%s", "nodes": [
                  {"id": "intake", "type": "%s"},
                  {"id": "done", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "intake", "to": "done"}]}""".formatted(UUID.randomUUID(), intake));
        String key = "order-" + UUID.randomUUID();
        ManualWorker worker = api.worker(intake);
        UUID run;
        StreamMessage<String, String> first;
        try (Connection lock = dataSource.getConnection()) {
            // the supervisor is held up writing the event log: what Redis holds of the next start is all there is
            lock.setAutoCommit(false);
            lock.createStatement().execute("lock table event_log in exclusive mode");
            api.start(workflow, "{\"order\": 0}");
            await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from pg_stat_activity "
                    + "where wait_event_type = 'Lock' and query ilike '%event_log%'").query(Long.class).single() > 0);
            run = startWithKey(workflow, key, status().isCreated());
            assertThat(jdbc.sql("select idempotency_key from run_starts where id = ?").param(run).query(String.class)
                    .single()).as("the run's start, written before it was answered").isEqualTo(key);
            first = taskOf(worker, run);
            api.redis().flushdb();
            lock.rollback();
        }

        ManualWorker again = api.worker(intake);
        StreamMessage<String, String> resent = taskOf(again, run);
        assertThat(resent.getBody()).containsEntry("token", first.getBody().get("token"))
                .containsEntry("input", "{\"order\":1}");
        assertThat(startWithKey(workflow, key, status().isOk())).as("a retried start with the run's key").isEqualTo(run);
        again.complete(resent, "{\"accepted\": true}");
        api.awaitStatus(run, "COMPLETED");
        assertThat(eventTypes(run)).startsWith("run.started").endsWith("run.completed");
        await().atMost(Duration.ofSeconds(40)).until(() -> jdbc.sql("select count(*) from run_starts where id = ?")
                .param(run).query(Long.class).single() == 0);
    }

    /** Waits for the run's task among the worker's (other runs' tasks are taken and left). */
    private static StreamMessage<String, String> taskOf(ManualWorker worker, UUID run) {
        List<StreamMessage<String, String>> taken = new ArrayList<>();
        await().atMost(Duration.ofSeconds(40)).until(() -> {
            taken.addAll(worker.take());
            return taken.stream().anyMatch(task -> task.getBody().get("run").equals(run.toString()));
        });
        return taken.stream().filter(task -> task.getBody().get("run").equals(run.toString())).findFirst()
                .orElseThrow();
    }

    private UUID startWithKey(String workflow, String key, ResultMatcher expected) throws Exception {
        JsonNode started = JSON.readTree(api.call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"order\": 1}, \"idempotencyKey\": \""
                        + key + "\"}")).andExpect(expected).andReturn().getResponse().getContentAsString());
        return UUID.fromString(started.get("id").asString());
    }

    private ResultActions admin(MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user("ada").roles("ADMIN")).with(csrf()));
    }

    private void loseRedisState(UUID run) {
        api.redis().del(keys.run(run).all().toArray(String[]::new));
    }

    private void awaitLogged(UUID run, String type) {
        awaitLogged(run, type, 1);
    }
}
