package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * A node's own limits through the runs API: {@code max_hops} stops a loop at the token past it, failing the run with
 * the node and the limit as the reason; {@code max_fan_out} fails the node whose step would send more tokens.
 */
@IntegrationTest
@AutoConfigureMockMvc
class NodeLimitsIntegrationTests {

    @Autowired
    MockMvc mvc;
    RunsApiCalls api;

    @BeforeEach
    void api() {
        api = new RunsApiCalls(mvc);
    }

    @Test
    void aLoopBodyNodeRunsUpToItsHopLimitAndTheTokenPastItFailsTheRun() throws Exception {
        UUID run = api.start("{\"workflow\": \"" + api.created("engine/hop-limit-loop") + "\"}");
        JsonNode detail = ended(run);

        assertThat(detail.get("status").asString()).isEqualTo("FAILED");
        assertThat(detail.get("error").asString())
                .isEqualTo("Node work went past its limit of 3 executions (limits.max_hops)");
        assertThat(executions(detail, "work")).hasSize(3).allSatisfy(work -> assertThat(work.get("status").asString())
                .isEqualTo("COMPLETED"));
        assertThat(executions(detail, "check")).hasSize(3);
        assertThat(executions(detail, "done")).isEmpty();
        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("FAILED");
        assertThat(replay.get("error").asString()).isEqualTo(detail.get("error").asString());
    }

    @Test
    void aStepSendingMoreTokensThanItsNodesFanOutLimitFailsTheNodeAndTheRun() throws Exception {
        UUID run = api.start("{\"workflow\": \"" + api.created("engine/fan-out-limit") + "\"}");
        JsonNode detail = ended(run);

        assertThat(detail.get("status").asString()).isEqualTo("FAILED");
        assertThat(detail.get("error").asString()).contains("fan");
        assertThat(executions(detail, "fan")).singleElement().satisfies(fan -> {
            assertThat(fan.get("status").asString()).isEqualTo("FAILED");
            assertThat(fan.at("/error/kind").asString()).isEqualTo("routing");
            assertThat(fan.at("/error/message").asString()).isEqualTo("Expected node 'fan' to emit at most 2 tokens "
                    + "in one step (limits.max_fan_out), but it would emit 3");
        });
        for (String next : List.of("a", "b", "c")) {
            assertThat(executions(detail, next)).as(next).isEmpty();
        }
    }

    private JsonNode ended(UUID run) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> !"RUNNING".equals(api.read(get("/api/v1/runs/" + run))
                .get("status").asString()));
        return api.read(get("/api/v1/runs/" + run));
    }

    private static List<JsonNode> executions(JsonNode detail, String node) {
        List<JsonNode> executions = new ArrayList<>();
        detail.get("nodes").forEach(execution -> {
            if (execution.get("node").asString().equals(node)) {
                executions.add(execution);
            }
        });
        return executions;
    }
}
