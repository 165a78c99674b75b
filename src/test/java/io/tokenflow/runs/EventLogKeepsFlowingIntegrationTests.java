package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two inputs that used to stop the event log of every run, driven through the API as a user would: text
 * PostgreSQL cannot store (a NUL character) in a run's inputs or an approval's comment, and a start retried with the
 * same idempotency key after its Redis key expired. Each is answered, and a run started afterwards still reaches the
 * event log.
 */
@IntegrationTest
@AutoConfigureMockMvc
class EventLogKeepsFlowingIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    RunsApiCalls api;

    @BeforeEach
    void api() {
        api = new RunsApiCalls(mvc);
    }
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;

    @Test
    void refusesRunInputsWithANulCharacterAndLaterRunsReachTheLog() throws Exception {
        String workflow = api.created("valid/sequential");
        refused(workflow, "{\"note\": [\"ok\", \"a\\u0000b\"]}", 422, "/inputs/note/1")
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("NUL")));
        refused(workflow, "{\"a\\u0000\": 1}", 422, "/inputs/a\u0000");
        refused(workflow, "{\"s\": \"\\ud800x\"}", 422, "/inputs/s");
        refused(workflow, "{\"big\": 1e999}", 422, "/inputs/big");
        refused(workflow, "{\"a\": 1, \"a\": 2}", 400, "");

        assertReachesTheLog(api.start("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"note\": \"a\\u0001b é 😀\"}}"));
    }

    @Test
    void refusesAnApprovalCommentWithANulCharacterAndTheApprovalStaysDecidable() throws Exception {
        String workflow = api.created("valid/hitl-approval");
        UUID run = api.start("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"deal_value\": 250000}}");
        await().atMost(Duration.ofSeconds(30)).until(() -> pendingApproval(run) != null);
        String approval = pendingApproval(run);
        mvc.perform(post("/api/v1/approvals/" + approval + "/decide").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"decision\": \"approve\", \"comment\": \"fine\\u0000\"}")
                        .with(user("ada").roles("APPROVER")).with(csrf()))
                .andExpect(status().isUnprocessableContent()).andExpect(jsonPath("$.pointer").value("/comment"));
        mvc.perform(post("/approvals/" + approval + "/decide").param("decision", "approve").param("comment", "x\u0000")
                        .with(user("ada").roles("APPROVER")).with(csrf()))
                .andExpect(status().is3xxRedirection());
        assertThat(jdbc.sql("select status from approvals where id = ?::uuid").param(approval).query(String.class)
                .single()).isEqualTo("PENDING");

        mvc.perform(post("/api/v1/approvals/" + approval + "/decide").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"decision\": \"approve\", \"comment\": \"fine\"}")
                        .with(user("ada").roles("APPROVER")).with(csrf()))
                .andExpect(status().isOk());
        assertReachesTheLog(run);
        assertThat(jdbc.sql("select status from approvals where id = ?::uuid").param(approval).query(String.class)
                .single()).isEqualTo("APPROVED");
    }

    @Test
    void aStartRetriedAfterItsRedisKeyExpiredAnswersTheRunItStarted() throws Exception {
        String workflow = api.created("valid/sequential");
        String key = "order-" + UUID.randomUUID();
        String body = "{\"workflow\": \"" + workflow + "\", \"idempotencyKey\": \"" + key + "\"}";
        UUID first = api.start(body);
        assertReachesTheLog(first);
        redis.commands().del(keys.idempotencyKey(key)); // as its 24 h TTL would

        JsonNode again = JSON.readTree(api.call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                        .content(body))
                .andExpect(status().isOk()).andExpect(header().string("Idempotent-Replayed", "true"))
                .andReturn().getResponse().getContentAsString());
        assertThat(again.get("id").asString()).isEqualTo(first.toString());
        assertThat(jdbc.sql("select count(*) from runs where idempotency_key = ?").param(key).query(Long.class).single())
                .isOne();
        // the key is bound again in Redis: a third try is answered without asking PostgreSQL
        assertThat(redis.commands().get(keys.idempotencyKey(key)))
                .isEqualTo(first.toString());

        assertReachesTheLog(api.start("{\"workflow\": \"" + workflow + "\"}"));
    }

    private ResultActions refused(String workflow, String inputs, int status, String pointer) throws Exception {
        return api.call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}"))
                .andExpect(status().is(status)).andExpect(jsonPath("$.pointer").value(pointer));
    }

    private void assertReachesTheLog(UUID run) {
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("select count(*) from event_log where run_id = ? "
                + "and event_type = 'run.completed'").param(run).query(Long.class).single() == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(jdbc.sql("select status from runs "
                + "where id = ?").param(run).query(String.class).single()));
    }

    private String pendingApproval(UUID run) {
        return jdbc.sql("select id::text from approvals where run_id = ? and status = 'PENDING'").param(run)
                .query(String.class).optional().orElse(null);
    }
}
