package io.tokenflow.waits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Timers (wait nodes) driven through the REST API on real Redis and PostgreSQL. */
@IntegrationTest
@AutoConfigureMockMvc
class TimerNodesIntegrationTests {

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired ApplicationContext context;

    private WaitingRunsApi api;

    @BeforeEach
    void api() {
        api = new WaitingRunsApi(mvc, jdbc);
    }

    @Test
    void aTimerHoldsItsTokenForItsDurationThenPassesItsInputOnOnce() throws Exception {
        String workflow = api.created("""
                {"name": "%s", "inputs": {"type": "object"},
                 "nodes": [
                   {"id": "pause", "type": "wait", "wait": {"duration": "PT2S"},
                    "input": {"order": "${workflow.input.order}"}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "after"}]}""");
        UUID run = api.start(workflow, "{\"order\": \"o-1\"}");
        api.awaitLogged(run, "node.waiting");
        assertThat(api.run(run).get("status").asString()).isEqualTo("RUNNING");
        JsonNode waiting = api.data(run, "node.waiting", "pause");
        assertThat(waiting.get("kind").asString()).isEqualTo("timer");

        api.awaitStatus(run, "COMPLETED");
        long held = api.at(run, "node.completed", "pause") - api.at(run, "token.emitted", "pause");
        assertThat(held).as("held for its duration").isBetween(1_900L, 6_000L);
        assertThat(waiting.get("until").asLong() - api.at(run, "token.emitted", "pause")).isBetween(1_990L, 2_010L);
        assertThat(api.data(run, "node.completed", "after").get("output").toString()).isEqualTo("{\"order\":\"o-1\"}");
        assertThat(api.count(run, "node.waiting", "pause")).isOne();
        assertThat(api.count(run, "node.completed", "pause")).isOne();
    }

    @Test
    void aTimerDueWhileNoInstanceLookedFiresOnceWhenOneLooksAgain() throws Exception {
        String workflow = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "pause", "type": "wait", "wait": {"duration": 1}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "after"}]}""");
        SmartLifecycle dueTimes = context.getBean("dueTimes", SmartLifecycle.class);
        dueTimes.stop();
        UUID run;
        try {
            run = api.start(workflow, "{}");
            api.awaitLogged(run, "node.waiting");
            UUID waiting = run;
            await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
                    .until(() -> api.count(waiting, "node.completed", "pause") == 0);
        } finally {
            dueTimes.start();
        }
        api.awaitStatus(run, "COMPLETED");
        assertThat(api.count(run, "node.completed", "pause")).isOne();
    }

    @Test
    void aTimerUntilAnInstantFromTheInputFiresThenAndOneThatIsNoInstantFailsTheRun() throws Exception {
        String workflow = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "pause", "type": "wait", "wait": {"until": "${workflow.input.at}"}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "after"}]}""");
        Instant at = Instant.now().plusMillis(1_500);
        UUID timely = api.start(workflow, "{\"at\": \"" + at + "\"}");
        UUID broken = api.start(workflow, "{\"at\": \"tomorrow\"}");

        api.awaitStatus(timely, "COMPLETED");
        assertThat(api.data(timely, "node.waiting", "pause").get("until").asLong()).isEqualTo(at.toEpochMilli());
        assertThat(api.at(timely, "node.completed", "pause")).isGreaterThanOrEqualTo(at.toEpochMilli());
        api.awaitStatus(broken, "FAILED");
        JsonNode failed = api.data(broken, "node.failed", "pause");
        assertThat(failed.get("error").get("code").asString()).isEqualTo("invalid_wait");
        assertThat(failed.get("error").get("message").asString()).contains("ISO-8601 instant").contains("tomorrow");
    }

    @Test
    void aCancelledRunDropsItsTimer() throws Exception {
        String workflow = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "pause", "type": "wait", "wait": {"duration": "PT1S"}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "after"}]}""");
        UUID run = api.start(workflow, "{}");
        api.awaitLogged(run, "node.waiting");
        api.call(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post(
                "/api/v1/runs/" + run + "/cancel")).andReturn();
        api.awaitStatus(run, "CANCELLED");
        await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
                .until(() -> api.count(run, "node.completed", "pause") == 0);
        assertThat(api.types(run)).last().isEqualTo("run.cancelled");
    }

    @Test
    void aTimerInsideALoopHoldsItsTokenOnEveryPass() throws Exception {
        String workflow = api.created("""
                {"name": "%s", "nodes": [
                   {"id": "pause", "type": "wait", "wait": {"duration": 1}},
                   {"id": "count", "type": "function", "config": {"function": "echo"},
                    "loop": {"max_iterations": 3, "loop_back_to": "pause"}},
                   {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "pause", "to": "count"}, {"from": "count", "to": "after"}]}""");
        UUID run = api.start(workflow, "{}");

        api.awaitStatus(run, "COMPLETED");
        List<Long> fired = jdbc.sql("select (extract(epoch from occurred_at) * 1000)::bigint from event_log "
                + "where run_id = ? and event_type = 'node.completed' and node_id = 'pause' order by seq").param(run)
                .query(Long.class).list();
        assertThat(fired).as("one timer per pass").hasSize(3);
        assertThat(jdbc.sql("select count(distinct (data->>'iteration')) from event_log where run_id = ? and "
                + "event_type = 'node.waiting'").param(run).query(Long.class).single()).isEqualTo(3L);
        for (int pass = 1; pass < fired.size(); pass++) {
            assertThat(fired.get(pass) - fired.get(pass - 1)).as("pass %d held for its second", pass)
                    .isGreaterThanOrEqualTo(950L);
        }
        assertThat(api.count(run, "node.completed", "after")).isOne();
    }
}
