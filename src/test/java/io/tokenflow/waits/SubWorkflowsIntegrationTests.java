package io.tokenflow.waits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/**
 * Sub-workflows driven through the REST API on real Redis and PostgreSQL: a workflow node starts a child run, waits
 * for it and takes its outputs; a child's failure fails or routes the parent; cancellation goes down to the child.
 */
@IntegrationTest
@AutoConfigureMockMvc
class SubWorkflowsIntegrationTests {

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    private WaitingRunsApi api;

    @BeforeEach
    void api() {
        api = new WaitingRunsApi(mvc, jdbc);
    }

    @Test
    void aWorkflowNodeStartsItsChildWithItsInputWaitsAndTakesTheChildsOutputs() throws Exception {
        String child = api.created("""
                {"name": "%s", "inputs": {"type": "object", "required": ["order"]},
                 "nodes": [{"id": "price", "type": "transform",
                            "config": {"fields": {"order": "input.order", "total": "input.qty * 3"}}}]}""");
        String parent = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "bill", "type": "workflow", "workflow": {"name": "CHILD", "version": 1},
                    "input": {"order": "${workflow.input.order}", "qty": 4}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "bill", "to": "after"}]}""".replace("CHILD", child));
        UUID run = api.start(parent, "{\"order\": \"o-1\"}");

        api.awaitStatus(run, "COMPLETED");
        JsonNode waiting = api.data(run, "node.waiting", "bill");
        assertThat(waiting.get("kind").asString()).isEqualTo("child");
        assertThat(waiting.get("workflow").asString()).isEqualTo(child + " v1");
        UUID childRun = UUID.fromString(waiting.get("child_run_id").asString());
        assertThat(api.data(run, "node.completed", "after").get("output"))
                .isEqualTo(WaitingRunsApi.JSON.readTree("{\"price\": {\"order\": \"o-1\", \"total\": 12}}"));

        JsonNode parentView = api.run(run);
        assertThat(parentView.get("children")).hasSize(1);
        assertThat(parentView.get("children").get(0).get("runId").asString()).isEqualTo(childRun.toString());
        assertThat(parentView.get("children").get(0).get("node").asString()).isEqualTo("bill");
        assertThat(parentView.get("children").get(0).get("status").asString()).isEqualTo("COMPLETED");
        assertThat(parentView.get("children").get(0).get("workflowName").asString()).isEqualTo(child);
        JsonNode childView = api.run(childRun);
        assertThat(childView.get("parent").get("runId").asString()).isEqualTo(run.toString());
        assertThat(childView.get("parent").get("node").asString()).isEqualTo("bill");
        assertThat(childView.get("inputs"))
                .isEqualTo(WaitingRunsApi.JSON.readTree("{\"order\": \"o-1\", \"qty\": 4}"));
        assertThat(api.count(run, "node.waiting", "bill")).isOne();
        String parentPage = page("/runs/" + run);
        assertThat(parentPage).contains("href=\"/runs/" + childRun + "\"").contains(child + " v1");
        String childPage = page("/runs/" + childRun);
        assertThat(childPage).contains("Called by").contains("href=\"/runs/" + run + "\"").contains("node bill");
        assertThat(jdbc.sql("select count(*) from runs where idempotency_key like 'call:%' and id = ?")
                .param(childRun).query(Long.class).single()).isOne();
    }

    @Test
    void aChildsFailureFailsTheParentOrTakesTheWorkflowNodesErrorPath() throws Exception {
        String child = api.created("""
                {"name": "%s", "nodes": [{"id": "charge", "type": "function",
                  "config": {"function": "fail", "args": {"message": "card declined"}}}]}""");
        String failing = callingThenEcho(child);
        String routing = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "bill", "type": "workflow", "workflow": {"name": "CHILD", "version": 1},
                    "on_failure": {"action": "path", "next_nodes": ["apologise"]}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}},
                   {"id": "apologise", "type": "function", "config": {"function": "echo"},
                    "input": {"why": "${nodes.bill.output.error}"}}],
                 "edges": [{"from": "bill", "to": "after"}]}""".replace("CHILD", child));
        UUID failed = api.start(failing, "{}");
        UUID routed = api.start(routing, "{}");

        api.awaitStatus(failed, "FAILED");
        JsonNode error = api.data(failed, "node.failed", "bill").get("error");
        assertThat(error.get("code").asString()).isEqualTo("child_failed");
        assertThat(error.get("message").asString()).contains("failed").contains("card declined");
        UUID childRun = UUID.fromString(error.get("child_run_id").asString());
        assertThat(api.run(childRun).get("status").asString()).isEqualTo("FAILED");
        assertThat(api.count(failed, "node.completed", "after")).isZero();

        // retrying the parent from its failed node starts a new child: the retried token has an id of its own
        api.call(post("/api/v1/runs/" + failed + "/retry")).andExpect(status().is2xxSuccessful());
        await().atMost(Duration.ofSeconds(40)).until(() -> api.count(failed, "node.failed", "bill") == 2);
        api.awaitStatus(failed, "FAILED");
        JsonNode children = api.run(failed).get("children");
        assertThat(children).hasSize(2);
        assertThat(children.get(0).get("runId").asString()).isNotEqualTo(children.get(1).get("runId").asString());
        assertThat(children).allSatisfy(called -> assertThat(called.get("status").asString()).isEqualTo("FAILED"));

        api.awaitStatus(routed, "COMPLETED");
        JsonNode why = api.data(routed, "node.completed", "apologise").get("output").get("why");
        assertThat(why.get("code").asString()).isEqualTo("child_failed");
        assertThat(why.get("message").asString()).contains("card declined");
        assertThat(api.count(routed, "node.completed", "after")).isZero();
    }

    @Test
    void cancellingTheParentCancelsItsChildAndCancellingAChildFailsItsNode() throws Exception {
        String child = api.created("""
                {"name": "%s", "nodes": [{"id": "pause", "type": "wait", "wait": {"duration": "PT1H"}}]}""");
        String parent = calling(child);
        UUID cancelledParent = api.start(parent, "{}");
        UUID orphaned = childOf(cancelledParent);
        api.awaitLogged(orphaned, "node.waiting");
        api.call(post("/api/v1/runs/" + cancelledParent + "/cancel")).andExpect(status().is2xxSuccessful());
        api.awaitStatus(cancelledParent, "CANCELLED");
        api.awaitStatus(orphaned, "CANCELLED");

        UUID waitingParent = api.start(parent, "{}");
        UUID cancelledChild = childOf(waitingParent);
        api.awaitLogged(cancelledChild, "node.waiting");
        api.call(post("/api/v1/runs/" + cancelledChild + "/cancel")).andExpect(status().is2xxSuccessful());
        api.awaitStatus(waitingParent, "FAILED");
        JsonNode error = api.data(waitingParent, "node.failed", "bill").get("error");
        assertThat(error.get("code").asString()).isEqualTo("child_cancelled");
        assertThat(error.get("message").asString()).contains(cancelledChild.toString()).contains("cancelled");
    }

    @Test
    void aMapInsideASubWorkflowGivesItsListToTheParent() throws Exception {
        String child = api.created("""
                {"name": "%s", "nodes": [{"id": "each", "type": "transform",
                  "config": {"fields": {"twice": "input * 2"}},
                  "map": {"items": "${workflow.input.numbers}", "concurrency": 2}}]}""");
        String parent = callingThenEcho(child);
        UUID run = api.start(parent, "{\"numbers\": [1, 2, 3, 4, 5]}");

        api.awaitStatus(run, "COMPLETED");
        assertThat(api.data(run, "node.completed", "after").get("output").toString()).isEqualTo(
                "{\"each\":[{\"twice\":2},{\"twice\":4},{\"twice\":6},{\"twice\":8},{\"twice\":10}]}");
    }

    @Test
    void aChildItsWorkflowRefusesToStartFailsTheWorkflowNode() throws Exception {
        String child = api.created("""
                {"name": "%s", "inputs": {"type": "object", "required": ["order"]},
                 "nodes": [{"id": "echo", "type": "function", "config": {"function": "echo"}}]}""");
        String parent = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "bill", "type": "workflow", "workflow": {"name": "CHILD", "version": 1},
                    "input": {"qty": 1}}]}""".replace("CHILD", child));
        UUID run = api.start(parent, "{}");

        api.awaitStatus(run, "FAILED");
        JsonNode error = api.data(run, "node.failed", "bill").get("error");
        assertThat(error.get("code").asString()).isEqualTo("invalid_child_input");
        assertThat(error.get("message").asString()).contains("order");
        assertThat(api.run(run).get("children")).isEmpty();
    }

    @Test
    void aParentRedisLostIsRecoveredAndWaitsForTheSameChild() throws Exception {
        String signal = "paid-" + UUID.randomUUID().toString().substring(0, 8);
        String child = api.created("""
                {"name": "%s", "nodes": [{"id": "paid", "type": "signal",
                  "signal": {"name": "SIGNAL", "key": "${workflow.input.order}"}}]}""".replace("SIGNAL", signal));
        String parent = callingThenEcho(child);
        UUID run = api.start(parent, "{\"order\": \"o-7\"}");
        UUID childRun = childOf(run);
        api.awaitLogged(childRun, "node.waiting");
        redis.commands().del(keys.run(run).all().toArray(String[]::new));

        mvc.perform(post("/api/v1/runs/" + run + "/recover").with(user("root").roles("ADMIN")).with(csrf()))
                .andExpect(status().isAccepted());
        await().atMost(Duration.ofSeconds(40)).until(() -> api.count(run, "node.waiting", "bill") == 2);
        assertThat(jdbc.sql("select data->>'child_run_id' from event_log where run_id = ? and event_type = "
                + "'node.waiting'").param(run).query(String.class).list()).containsOnly(childRun.toString());
        api.signal(signal, "{\"key\": \"o-7\", \"payload\": {\"amount\": 5}}").andExpect(status().isOk());

        api.awaitStatus(run, "COMPLETED");
        assertThat(api.run(run).get("children")).hasSize(1);
        assertThat(api.data(run, "node.completed", "after").get("output").get("paid").get("signal").get("payload")
                .toString()).isEqualTo("{\"amount\":5}");
    }

    @Test
    void aChildsEndingTheWorkflowNodeMissedIsSeenWhenItLooksAgain() throws Exception {
        String signal = "done-" + UUID.randomUUID().toString().substring(0, 8);
        String child = api.created("""
                {"name": "%s", "nodes": [{"id": "done", "type": "signal",
                  "signal": {"name": "SIGNAL", "key": "k"}}]}""".replace("SIGNAL", signal));
        String parent = calling(child);
        UUID run = api.start(parent, "{}");
        UUID childRun = childOf(run);
        api.awaitLogged(childRun, "node.waiting");
        String token = jdbc.sql("select token_id from event_log where run_id = ? and event_type = 'node.waiting'")
                .param(run).query(String.class).single();
        String member = run + " " + token;
        Double lookAgain = redis.commands().zscore(keys.waitDueTimes(keys.shardOf(run)), member);
        assertThat(lookAgain).as("the workflow node looks at its child again").isNotNull();
        assertThat(lookAgain.longValue() - System.currentTimeMillis()).isBetween(20_000L, 31_000L);
        // the link is away while the child ends, so its ending is not routed back: as if the supervisor died then
        Map<String, Object> link = jdbc.sql("select * from run_calls where child_run_id = ?").param(childRun)
                .query().singleRow();
        jdbc.sql("delete from run_calls where child_run_id = ?").param(childRun).update();
        api.signal(signal, "{\"key\": \"k\"}").andExpect(status().isOk());
        api.awaitStatus(childRun, "COMPLETED");
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> api.count(run, "node.completed", "bill") == 0);
        jdbc.sql("insert into run_calls values (:child_run_id, :parent_run_id, :parent_node, :parent_token, :depth, "
                + ":called_at)").params(link).update();

        redis.commands().zadd(keys.waitDueTimes(keys.shardOf(run)), System.currentTimeMillis(), member);
        api.awaitStatus(run, "COMPLETED");
        assertThat(api.count(run, "node.completed", "bill")).isOne();
    }

    /** A workflow whose node {@code bill} calls {@code child} at version 1, then echoes what it gave. */
    private String callingThenEcho(String child) throws Exception {
        return api.created("""
                {"name": "%s", "nodes": [
                   {"id": "bill", "type": "workflow", "workflow": {"name": "CHILD", "version": 1}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "bill", "to": "after"}]}""".replace("CHILD", child));
    }

    /** A workflow of one node, {@code bill}, calling {@code child} at version 1. */
    private String calling(String child) throws Exception {
        return api.created("""
                {"name": "%s", "nodes": [
                   {"id": "bill", "type": "workflow", "workflow": {"name": "CHILD", "version": 1}}]}"""
                .replace("CHILD", child));
    }

    private String page(String path) throws Exception {
        return api.call(get(path)).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
    }

    private UUID childOf(UUID parent) {
        api.awaitLogged(parent, "node.waiting");
        return UUID.fromString(api.data(parent, "node.waiting", "bill").get("child_run_id").asString());
    }
}
