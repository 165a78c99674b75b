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
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;

import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sagas as a user meets them: nodes with a {@code compensate} task, workflows made and runs started over the REST
 * API, the tasks and their compensators taken by external workers speaking only the Redis protocol of
 * docs/worker-protocol.md, and the outcome read back from the API and the event log.
 */
class CompensationIntegrationTests extends OperatorTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired RedisKeys keys;

    @Test
    void aFailedRunsCompletedStepsAreUndoneInReverseOrderWhenItsWorkflowSaysSo() throws Exception {
        String book = api.customType("book");
        String undo = api.customType("compensator");
        String workflow = api.created("""
                {"name": "saga-%s", "compensation": {"on": ["failure"]}, "nodes": [
                  {"id": "flight", "type": "%s", "compensate": {"type": "%s", "config": {"what": "flight"}}},
                  {"id": "hotel", "type": "%s", "compensate": {"type": "%s", "config": {"what": "hotel"}}},
                  {"id": "charge", "type": "%s"}],
                 "edges": [{"from": "flight", "to": "hotel"}, {"from": "hotel", "to": "charge"}]}"""
                .formatted(UUID.randomUUID(), book, undo, book, undo, book));
        UUID run = api.start(workflow, "{\"trip\": 9}");
        ManualWorker booker = api.worker(book);
        ManualWorker undoer = api.worker(undo);
        booker.complete(booker.takeOne(Duration.ofSeconds(10)), "{\"flight\": \"LH1\"}");
        booker.complete(booker.takeOne(Duration.ofSeconds(10)), "{\"hotel\": \"Ritz\"}");
        booker.fail(booker.takeOne(Duration.ofSeconds(10)), "card declined");
        api.awaitStatus(run, "FAILED");

        StreamMessage<String, String> first = undoer.takeOne(Duration.ofSeconds(15));
        assertThat(first.getBody()).containsEntry("node", "hotel~compensate").containsEntry("from", "hotel")
                .containsEntry("input", "{\"hotel\":\"Ritz\"}").containsEntry("config", "{\"what\":\"hotel\"}");
        assertThat(undoer.take()).isEmpty();   // one at a time
        undoer.complete(first, "{\"cancelled\": \"Ritz\"}");
        StreamMessage<String, String> second = undoer.takeOne(Duration.ofSeconds(10));
        assertThat(second.getBody()).containsEntry("node", "flight~compensate")
                .containsEntry("input", "{\"flight\":\"LH1\"}");
        undoer.complete(second, "{\"refunded\": \"LH1\"}");

        await().atMost(Duration.ofSeconds(10)).until(() -> eventTypes(run).contains("compensation.completed"));
        assertThat(eventTypes(run)).containsSubsequence("run.failed", "compensation.started", "token.emitted",
                "node.completed", "token.emitted", "node.completed", "compensation.completed");
        assertThat(jdbc.sql("select data->>'by' || ' ' || (data->>'reason') || ' ' || (data->'steps')::text "
                + "from event_log where run_id = ? and event_type = 'compensation.started'").param(run)
                .query(String.class).single()).isEqualTo("system failure [\"hotel#0\",\"flight#0\"]");
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("FAILED");
        assertThat(replay.get("compensation").asString()).isEqualTo("completed");
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("FAILED");
        assertThat(jdbc.sql("select node_id from node_executions where run_id = ? and node_id like '%~compensate' "
                + "and status = 'COMPLETED' order by ended_at").param(run).query(String.class).list())
                .containsExactly("hotel~compensate", "flight~compensate");
    }

    @Test
    void aRunPastItsDeadlineIsCancelledAndThenCompensatedInReverseOrder() throws Exception {
        String step = api.customType("step");
        String undo = api.customType("compensator");
        String workflow = api.created("""
                {"name": "saga-deadline-%s", "deadline": {"seconds": 2, "action": "cancel"},
                 "compensation": {"on": ["cancel"]}, "nodes": [
                  {"id": "reserve", "type": "%s", "compensate": {"type": "%s"}},
                  {"id": "pick", "type": "%s", "compensate": {"type": "%s"}},
                  {"id": "ship", "type": "%s"}],
                 "edges": [{"from": "reserve", "to": "pick"}, {"from": "pick", "to": "ship"}]}"""
                .formatted(UUID.randomUUID(), step, undo, step, undo, step));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(step);
        ManualWorker undoer = api.worker(undo);
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"reserved\": 1}");
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"picked\": 1}");
        worker.takeOne(Duration.ofSeconds(10));   // ship: never answered

        api.awaitStatus(run, "CANCELLED");
        StreamMessage<String, String> first = undoer.takeOne(Duration.ofSeconds(15));
        undoer.complete(first, "{}");
        StreamMessage<String, String> second = undoer.takeOne(Duration.ofSeconds(10));
        undoer.complete(second, "{}");
        assertThat(List.of(first.getBody().get("node"), second.getBody().get("node")))
                .containsExactly("pick~compensate", "reserve~compensate");
        await().atMost(Duration.ofSeconds(10)).until(() -> eventTypes(run).contains("compensation.completed"));
        assertThat(jdbc.sql("select data->>'by' from event_log where run_id = ? and event_type = 'run.cancelled'")
                .param(run).query(String.class).single()).isEqualTo("deadline");
    }

    @Test
    void anOperatorCompensatesAnEndedRunOnRequestAndAFailedCompensatorCanBeRunAgain() throws Exception {
        String step = api.customType("step");
        String undo = api.customType("compensator");
        String workflow = api.created("""
                {"name": "saga-manual-%s", "nodes": [
                  {"id": "debit", "type": "%s", "compensate": {"type": "%s"}},
                  {"id": "credit", "type": "%s", "compensate": {"type": "%s"}}],
                 "edges": [{"from": "debit", "to": "credit"}]}""".formatted(UUID.randomUUID(), step, undo, step, undo));
        UUID run = api.start(workflow);
        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("has not ended")));
        ManualWorker worker = api.worker(step);
        ManualWorker undoer = api.worker(undo);
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"debited\": 5}");
        worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{\"credited\": 5}");
        api.awaitStatus(run, "COMPLETED");
        assertThat(undoer.take()).isEmpty();   // no compensation.on: nothing runs by itself

        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.steps[0]").value("credit#0")).andExpect(jsonPath("$.steps[1]").value("debit#0"));
        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("running")));
        undoer.complete(undoer.takeOne(Duration.ofSeconds(10)), "{}");
        StreamMessage<String, String> debit = undoer.takeOne(Duration.ofSeconds(10));
        undoer.fail(debit, "bank offline");
        await().atMost(Duration.ofSeconds(10)).until(() -> eventTypes(run).contains("compensation.failed"));
        assertThat(api.read(get("/api/v1/runs/" + run + "/replay")).get("compensation").asString())
                .isEqualTo("failed");

        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.steps.length()").value(1)).andExpect(jsonPath("$.steps[0]").value("debit#0"));
        StreamMessage<String, String> again = undoer.takeOne(Duration.ofSeconds(10));
        assertThat(again.getBody()).containsEntry("node", "debit~compensate");
        undoer.complete(again, "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> eventTypes(run).contains("compensation.completed"));
        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("none is left")));
        assertThat(api.read(get("/api/v1/runs/" + run)).get("status").asString()).isEqualTo("COMPLETED");
    }

    @Test
    void aCompensationRedisLostWhileItRanIsStartedAgainOnRequestWithTheStepsLeft() throws Exception {
        String step = api.customType("step");
        String undo = api.customType("compensator");
        String workflow = api.created("""
                {"name": "saga-lost-%s", "nodes": [
                  {"id": "reserve", "type": "%s", "compensate": {"type": "%s"}},
                  {"id": "ship", "type": "%s", "compensate": {"type": "%s"}},
                  {"id": "bill", "type": "%s", "compensate": {"type": "%s"}}],
                 "edges": [{"from": "reserve", "to": "ship"}, {"from": "ship", "to": "bill"}]}"""
                .formatted(UUID.randomUUID(), step, undo, step, undo, step, undo));
        UUID run = api.start(workflow);
        ManualWorker worker = api.worker(step);
        ManualWorker undoer = api.worker(undo);
        for (int i = 0; i < 3; i++) {
            worker.complete(worker.takeOne(Duration.ofSeconds(10)), "{}");
        }
        api.awaitStatus(run, "COMPLETED");
        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isAccepted());
        undoer.complete(undoer.takeOne(Duration.ofSeconds(10)), "{}");
        StreamMessage<String, String> ship = undoer.takeOne(Duration.ofSeconds(10));
        assertThat(ship.getBody()).containsEntry("node", "ship~compensate");
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = 'node.completed' and node_id = 'bill~compensate'").param(run).query(Long.class)
                .single() > 0);
        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(Matchers.containsString("running")));

        api.redis().del(keys.run(run).all().toArray(String[]::new));

        api.call(post("/api/v1/runs/" + run + "/compensate")).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.steps.length()").value(2)).andExpect(jsonPath("$.steps[0]").value("ship#0"))
                .andExpect(jsonPath("$.steps[1]").value("reserve#0"));
        StreamMessage<String, String> shipAgain = undoer.takeOne(Duration.ofSeconds(10));
        assertThat(shipAgain.getBody()).containsEntry("node", "ship~compensate")
                .containsEntry("token", ship.getBody().get("token"));
        undoer.complete(shipAgain, "{}");
        StreamMessage<String, String> reserve = undoer.takeOne(Duration.ofSeconds(10));
        assertThat(reserve.getBody()).containsEntry("node", "reserve~compensate");
        undoer.complete(reserve, "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> eventTypes(run).contains("compensation.completed"));
        assertThat(jdbc.sql("select count(*) from event_log where run_id = ? and event_type = 'node.completed' "
                + "and node_id = 'bill~compensate'").param(run).query(Long.class).single()).isOne();
    }

    @Test
    void refusesCompensationSettingsThatCouldNotTakeEffect() throws Exception {
        String document = """
                {"name": "saga-bad-%s", "compensation": {"on": ["failure"]}, "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "noop"}}]}""".formatted(UUID.randomUUID());
        assertThat(pointers(document)).contains("/compensation");
        String compensators = """
                {"name": "saga-bad-%s", "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "noop"}, "compensate": {"type": "human"}},
                  {"id": "b", "type": "function", "config": {"function": "noop"}, "compensate": {"type": "nope"}},
                  {"id": "c", "type": "function", "config": {"function": "noop"},
                   "compensate": {"type": "function", "config": {"function": 7}}}],
                 "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}]}""".formatted(UUID.randomUUID());
        assertThat(pointers(compensators)).contains("/nodes/0/compensate/type", "/nodes/1/compensate/type")
                .anyMatch(pointer -> pointer.startsWith("/nodes/2/compensate/config"));
    }

    private List<String> pointers(String document) throws Exception {
        JsonNode problem = JSON.readTree(api.call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                .content(document)).andExpect(status().isUnprocessableContent()).andReturn().getResponse()
                .getContentAsString());
        return problem.get("diagnostics").valueStream().map(diagnostic -> diagnostic.get("pointer").asString())
                .toList();
    }

}
