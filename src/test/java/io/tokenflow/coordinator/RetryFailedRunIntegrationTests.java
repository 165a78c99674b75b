package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Retrying a failed run ({@code POST /api/v1/runs/{id}/retry}) as an operator does: workflows and runs made over the
 * REST API, tasks taken and answered by an external worker speaking only the Redis protocol of
 * docs/worker-protocol.md, and the outcome read back from the API, the replay and the event log.
 */
class RetryFailedRunIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RedisKeys keys;

    @Test
    void aFailedRunRetriedFromItsFailedNodeCompletesUnderTheSameIdWithItsEventsAppended() throws Exception {
        String fetch = api.customType("fetch");
        String charge = api.customType("charge");
        String workflow = api.created("""
                {"name": "retry-run-%s", "nodes": [
                  {"id": "fetch", "type": "%s"},
                  {"id": "charge", "type": "%s"},
                  {"id": "receipt", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "fetch", "to": "charge"}, {"from": "charge", "to": "receipt"}]}"""
                .formatted(UUID.randomUUID(), fetch, charge));
        UUID run = api.start(workflow, "{\"order\": 7}");
        ManualWorker fetcher = api.worker(fetch);
        ManualWorker charger = api.worker(charge);
        fetcher.complete(fetcher.takeOne(Duration.ofSeconds(10)), "{\"amount\": 42}");
        StreamMessage<String, String> first = charger.takeOne(Duration.ofSeconds(10));
        charger.fail(first, "card declined");
        api.awaitStatus(run, "FAILED");

        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.id").value(run.toString())).andExpect(jsonPath("$.nodes[0]").value("charge"));
        StreamMessage<String, String> again = charger.takeOne(Duration.ofSeconds(10));
        assertThat(again.getBody()).containsEntry("run", run.toString()).containsEntry("node", "charge")
                .containsEntry("attempt", "1").containsEntry("input", "{\"amount\":42}");
        assertThat(again.getBody().get("token")).isNotEqualTo(first.getBody().get("token"));
        charger.complete(again, "{\"charged\": 42}");

        api.awaitStatus(run, "COMPLETED");
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.at("/outputs/receipt/charged").asInt()).isEqualTo(42);
        assertThat(detail.get("error").isNull()).isTrue();
        assertThat(eventTypes(run)).containsSubsequence("node.failed", "run.failed", "run.resumed", "token.emitted",
                "node.completed", "run.completed");
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(replay.get("nodes")).filteredOn(node -> node.get("node").asString().equals("charge"))
                .singleElement().satisfies(node -> assertThat(node.get("status").asString()).isEqualTo("COMPLETED"));
        assertThat(jdbc.sql("select status from node_executions where run_id = ? and node_id = 'charge'").param(run)
                .query(String.class).single()).isEqualTo("COMPLETED");
        assertThat(jdbc.sql("select error from node_executions where run_id = ? and node_id = 'charge'").param(run)
                .query(String.class).optional()).isEmpty();
    }

    @Test
    void aRetryRestoresTheArrivalWaitingAtAJoinBehindAFanOutAfterRedisForgotTheRun() throws Exception {
        String leg = api.customType("leg");
        String workflow = api.created("""
                {"name": "retry-join-%s", "nodes": [
                  {"id": "split", "type": "function", "config": {"function": "echo"}},
                  {"id": "flight", "type": "%s"},
                  {"id": "hotel", "type": "%s"},
                  {"id": "book", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "split", "to": "flight"}, {"from": "split", "to": "hotel"},
                           {"from": "flight", "to": "book"}, {"from": "hotel", "to": "book"}]}"""
                .formatted(UUID.randomUUID(), leg, leg));
        UUID run = api.start(workflow, "{\"trip\": \"Lisbon\"}");
        ManualWorker worker = api.worker(leg);
        List<StreamMessage<String, String>> legs = new java.util.ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> legs.addAll(worker.take()) && legs.size() == 2
                || legs.size() == 2);
        StreamMessage<String, String> hotel = legs.stream().filter(t -> t.getBody().get("node").equals("hotel"))
                .findFirst().orElseThrow();
        StreamMessage<String, String> flight = legs.get(0) == hotel ? legs.get(1) : legs.get(0);
        worker.complete(hotel, "{\"room\": 12}");
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = 'join.arrived'").param(run).query(Long.class).single() == 1);
        worker.fail(flight, "sold out");
        api.awaitStatus(run, "FAILED");
        // the retention of a finished run's Redis state (1 min) has passed: only the event log knows the run now
        api.redis().del(keys.run(run).all().toArray(String[]::new));

        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.nodes[0]").value("flight")).andExpect(jsonPath("$.joinArrivals").value(1));
        StreamMessage<String, String> again = worker.takeOne(Duration.ofSeconds(10));
        assertThat(again.getBody()).containsEntry("node", "flight").containsEntry("input", "{\"trip\":\"Lisbon\"}");
        worker.complete(again, "{\"seat\": \"3A\"}");

        api.awaitStatus(run, "COMPLETED");
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.at("/outputs/book/hotel/room").asInt()).isEqualTo(12);
        assertThat(detail.at("/outputs/book/flight/seat").asString()).isEqualTo("3A");
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(replay.get("nodes")).extracting(node -> node.get("node").asString() + " "
                + node.get("status").asString()).containsExactlyInAnyOrder("split COMPLETED", "flight COMPLETED",
                "hotel COMPLETED", "book COMPLETED");
    }

    @Test
    void aRetryAsksAgainForTheApprovalTheFailureLeftPending() throws Exception {
        String check = api.customType("check");
        String workflow = api.created("""
                {"name": "retry-approval-%s", "nodes": [
                  {"id": "split", "type": "function", "config": {"function": "echo"}},
                  {"id": "check", "type": "%s"},
                  {"id": "sign", "type": "human", "human": {"approvers": ["olga"]}}],
                 "edges": [{"from": "split", "to": "check"}, {"from": "split", "to": "sign"}]}"""
                .formatted(UUID.randomUUID(), check));
        UUID run = api.start(workflow, "{\"contract\": 5}");
        ManualWorker worker = api.worker(check);
        StreamMessage<String, String> token = worker.takeOne(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(run) == 1);
        worker.fail(token, "registry down");
        api.awaitStatus(run, "FAILED");
        assertThat(pending(run)).isZero();

        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(10)).until(() -> pending(run) == 1);
        String approval = jdbc.sql("select id::text from approvals where run_id = ? and status = 'PENDING'").param(run)
                .query(String.class).single();
        api.call(post("/api/v1/approvals/" + approval + "/decide").contentType(MediaType.APPLICATION_JSON)
                .content("{\"decision\": \"approve\"}")).andExpect(status().isOk());
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"ok\": true}");
        api.awaitStatus(run, "COMPLETED");
    }

    @Test
    void onlyAFailedRunCanBeRetriedAndOnlyOnce() throws Exception {
        String step = api.customType("step");
        String workflow = api.created("""
                {"name": "retry-refused-%s", "nodes": [{"id": "step", "type": "%s"}]}"""
                .formatted(UUID.randomUUID(), step));
        UUID run = api.start(workflow, "{}");
        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("Expected a failed run")));
        api.call(post("/api/v1/runs/" + UUID.randomUUID() + "/retry")).andExpect(status().isNotFound());
        ManualWorker worker = api.worker(step);
        worker.fail(worker.takeOne(Duration.ofSeconds(10)), "broken");
        api.awaitStatus(run, "FAILED");

        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isAccepted());
        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isConflict());
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{}");
        api.awaitStatus(run, "COMPLETED");
        api.call(post("/api/v1/runs/" + run + "/retry")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("completed")));
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'run.resumed'")
                .param(run).query(Long.class).single()).isEqualTo(1);
    }

    private long pending(UUID run) {
        return jdbc.sql("select count(*) from approvals where run_id = ? and status = 'PENDING'").param(run)
                .query(Long.class).single();
    }

}
