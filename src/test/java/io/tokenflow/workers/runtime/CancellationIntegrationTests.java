package io.tokenflow.workers.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.json.JsonMapper;

/**
 * Cancelling a run reaches the work a built-in worker is doing for it: four runs each sleeping 30 s on the function
 * workers (all of them) are cancelled over the API, every sleep stops within a second, and another run's task does not
 * wait behind them.
 */
@IntegrationTest
@AutoConfigureMockMvc
class CancellationIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    @Autowired RunningTasks running;
    @Autowired JdbcClient jdbc;

    @Test
    void cancellingRunsStopsTheirSleepingTasksWithinASecondAndFreesTheWorkers() throws Exception {
        String sleepy = created("""
                {"name": "sleepy-%s", "nodes": [
                  {"id": "nap", "type": "function", "config": {"function": "sleep", "args": {"ms": 30000}}},
                  {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "nap", "to": "after"}]}""");
        List<UUID> naps = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            naps.add(start(sleepy));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> naps.stream().allMatch(this::sleeping));

        long cancelled = System.nanoTime();
        for (UUID run : naps) {
            call(post("/api/v1/runs/" + run + "/cancel")).andExpect(status().isAccepted());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> naps.stream().noneMatch(this::sleeping));
        assertThat(Duration.ofNanos(System.nanoTime() - cancelled)).isLessThan(Duration.ofSeconds(1));

        String quick = created("""
                {"name": "quick-%s", "nodes": [
                  {"id": "short", "type": "function", "config": {"function": "sleep", "args": {"ms": 10}}}]}""");
        long started = System.nanoTime();
        UUID run = start(quick);
        await().atMost(Duration.ofSeconds(10)).until(() -> "COMPLETED".equals(jdbc.sql("select status from runs "
                + "where id = ?").param(run).query(String.class).optional().orElse(null)));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("select count(*) from runs where id in (:ids) "
                + "and status = 'CANCELLED'").param("ids", naps).query(Long.class).single() == 4);
        assertThat(jdbc.sql("select count(*) from event_log where run_id in (:ids) and node_id = 'nap' and event_type "
                + "in ('node.completed', 'node.failed')").param("ids", naps).query(Long.class).single())
                .as("a stopped task reports nothing").isZero();
    }

    private boolean sleeping(UUID run) {
        return running.count(run) > 0;
    }

    private String created(String template) throws Exception {
        String document = template.formatted(UUID.randomUUID().toString().substring(0, 8));
        call(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON).content(document))
                .andExpect(status().isCreated());
        return JSON.readTree(document).get("name").asString();
    }

    private UUID start(String workflow) throws Exception {
        String response = call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                .content("{\"workflow\": \"" + workflow + "\"}")).andExpect(status().isCreated()).andReturn()
                .getResponse().getContentAsString();
        return UUID.fromString(JSON.readTree(response).get("id").asString());
    }

    private org.springframework.test.web.servlet.ResultActions call(MockHttpServletRequestBuilder request)
            throws Exception {
        return mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")).with(csrf()));
    }
}
