package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasSize;
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
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The runs API on the real engine: start, read, events page by page, replay from the log, and bad requests. */
@IntegrationTest
@AutoConfigureMockMvc
class RunsApiIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;
    RunsApiCalls api;

    @BeforeEach
    void api() {
        api = new RunsApiCalls(mvc);
    }

    @Test
    void runsAFanOutFanInAndReplaysItsLogToTheSameState() throws Exception {
        String workflow = api.created("valid/fan-out-fan-in");
        UUID run = api.start("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"order\": 7}}");
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(api.read(get("/api/v1/runs/" + run))
                .get("status").asString()));
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.get("counter").asLong()).isZero();
        assertThat(detail.get("live").asBoolean()).isFalse();
        assertThat(detail.get("nodes")).hasSize(4).allSatisfy(node -> assertThat(node.get("status").asString())
                .isEqualTo("COMPLETED"));
        assertThat(detail.at("/outputs/D")).isEqualTo(JSON.readTree("{\"B\": {\"order\": 7}, \"C\": {\"order\": 7}}"));

        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(replay.get("outputs")).isEqualTo(detail.get("outputs"));
        for (JsonNode node : detail.get("nodes")) {
            JsonNode replayed = findNode(replay, node.get("node").asString());
            assertThat(replayed.get("status")).isEqualTo(node.get("status"));
            assertThat(replayed.get("output")).isEqualTo(node.get("output"));
        }
        assertThat(replay.get("path")).hasSize(6);

        JsonNode early = api.read(get("/api/v1/runs/" + run + "/replay?upToSeq=2"));
        assertThat(early.get("status").asString()).isEqualTo("RUNNING");
        assertThat(early.get("counter").asLong()).isEqualTo(1);
        assertThat(early.get("upToSeq").asLong()).isEqualTo(2);
    }

    @Test
    void pagesThroughTheEventLogInOrder() throws Exception {
        UUID run = api.start("{\"workflow\": \"" + api.created("valid/sequential") + "\"}");
        await().atMost(Duration.ofSeconds(30)).until(() -> "COMPLETED".equals(api.read(get("/api/v1/runs/" + run))
                .get("status").asString()));
        api.call(get("/api/v1/runs/" + run + "/events?limit=3")).andExpect(status().isOk())
                .andExpect(jsonPath("$.events", hasSize(3)))
                .andExpect(jsonPath("$.events[0].seq").value(1))
                .andExpect(jsonPath("$.events[0].type").value("run.started"))
                .andExpect(jsonPath("$.nextAfterSeq").value(3));
        api.call(get("/api/v1/runs/" + run + "/events?afterSeq=3&limit=100")).andExpect(jsonPath("$.events[0].seq").value(4))
                .andExpect(jsonPath("$.events[-1:].type").value("run.completed"))
                .andExpect(jsonPath("$.nextAfterSeq").doesNotExist());
        api.call(get("/api/v1/runs?status=COMPLETED&workflow=" + api.read(get("/api/v1/runs/" + run)).get("workflowName")
                .asString())).andExpect(jsonPath("$[0].id").value(run.toString()));
    }

    @Test
    void theSameIdempotencyKeyReturnsTheSameRun() throws Exception {
        String workflow = api.created("valid/sequential");
        String key = "order-" + UUID.randomUUID();
        String body = "{\"workflow\": \"" + workflow + "\", \"idempotencyKey\": \"" + key + "\"}";
        UUID first = api.start(body);
        JsonNode again = JSON.readTree(api.call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().isOk()).andExpect(header().string("Idempotent-Replayed", "true"))
                .andReturn().getResponse().getContentAsString());
        assertThat(again.get("id").asString()).isEqualTo(first.toString());
    }

    @Test
    void refusesBadStartRequestsWithProblems() throws Exception {
        String workflow = api.created("valid/data-enrichment");
        startFails("{}", 400, "/workflow");
        startFails("{\"workflow\": \"no-such-workflow-" + UUID.randomUUID() + "\"}", 404, null);
        startFails("{\"workflow\": \"" + workflow + "\", \"tag\": \"main\", \"version\": 1}", 400, "/version");
        startFails("{\"workflow\": \"" + workflow + "\", \"version\": 99}", 404, null);
        startFails("{\"workflow\": \"" + workflow + "\", \"version\": 3000000000}", 400, "/version");
        startFails("{\"workflow\": \"" + workflow + "\", \"version\": 1.5}", 400, "/version");
        startFails("{\"workflow\": \"" + workflow + "\", \"inputs\": [1]}", 400, "/inputs");
        // a misspelt member is refused: ignored, a retried start would have made a second run
        startFails("{\"workflow\": \"" + workflow + "\", \"idempotency_key\": \"k\"}", 400, "/idempotency_key");
        startFails("{\"workflow\": \"" + workflow + "\", \"inputs\": {}}", 422, "/inputs/city");
        startFails("{\"workflow\": \"" + workflow + "\", \"inputs\": {\"city\": 5}}", 422, "/inputs/city");
        startFails("{\"workflow\": 12}", 400, "/workflow");
        startFails("{\"workflow\": ", 400, null);
        startFails("{\"workflow\": \"" + workflow + "\", \"idempotencyKey\": \"has spaces\"}", 400, "/idempotencyKey");
        api.call(get("/api/v1/runs/" + UUID.randomUUID())).andExpect(status().isNotFound());
        api.call(get("/api/v1/runs/not-a-uuid")).andExpect(status().isBadRequest());
        api.call(get("/api/v1/runs?status=SOMEWHERE")).andExpect(status().isBadRequest());
        api.call(post("/api/v1/runs/" + UUID.randomUUID() + "/cancel")).andExpect(status().isConflict());
    }

    private void startFails(String body, int status, String pointer) throws Exception {
        ResultActions result = api.call(post("/api/v1/runs").contentType(MediaType.APPLICATION_JSON).content(body))
                .andExpect(status().is(status)).andExpect(jsonPath("$.status").value(status));
        if (pointer != null) {
            result.andExpect(jsonPath("$.pointer").value(pointer));
        }
    }

    private static JsonNode findNode(JsonNode replay, String node) {
        for (JsonNode candidate : replay.get("nodes")) {
            if (candidate.get("node").asString().equals(node)) {
                return candidate;
            }
        }
        throw new AssertionError("Expected node " + node + " in the replay");
    }
}
