package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * Loop iterations through the runs API: every execution of a node in a run has its own iteration, also inside a loop
 * nested in another, and the replay of the event log finds the same executions.
 */
@IntegrationTest
@AutoConfigureMockMvc
class LoopIterationsIntegrationTests {

    @Autowired
    MockMvc mvc;
    RunsApiCalls api;

    @BeforeEach
    void api() {
        api = new RunsApiCalls(mvc);
    }

    @Test
    void aLoopNestedInALoopGivesEveryExecutionItsOwnIteration() throws Exception {
        UUID run = api.start("{\"workflow\": \"" + api.created("engine/nested-loops") + "\"}");
        await().atMost(Duration.ofSeconds(60)).until(() -> !"RUNNING".equals(api.read(get("/api/v1/runs/" + run))
                .get("status").asString()));
        JsonNode detail = api.read(get("/api/v1/runs/" + run));
        assertThat(detail.get("status").asString()).isEqualTo("COMPLETED");

        Map<String, List<Integer>> iterations = iterations(detail.get("nodes"));
        for (String inner : List.of("fork", "left", "right", "inner")) {
            assertThat(iterations.get(inner)).as(inner).hasSize(12).doesNotHaveDuplicates();
        }
        for (String outer : List.of("outer_body", "outer")) {
            assertThat(iterations.get(outer)).as(outer).hasSize(3).doesNotHaveDuplicates();
        }
        assertThat(iterations.get("start")).containsExactly(0);
        assertThat(iterations.get("done")).containsExactly(0);
        // the inner join met its two arrivals of the same pass each time: the outer pass's nodes share its iteration
        assertThat(iterations.get("inner")).isEqualTo(iterations.get("left")).isEqualTo(iterations.get("right"));
        assertThat(iterations.get("outer")).isEqualTo(iterations.get("outer_body"));
        assertThat(detail.get("nodes")).allSatisfy(node -> assertThat(node.get("status").asString())
                .isEqualTo("COMPLETED"));

        JsonNode replay = api.read(get("/api/v1/runs/" + run + "/replay"));
        assertThat(replay.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(replay.get("counter").asLong()).isZero();
        assertThat(replay.get("pendingJoins")).isEmpty();
        assertThat(iterations(replay.get("nodes"))).isEqualTo(iterations);
        assertThat(replay.get("nodes")).allSatisfy(node -> assertThat(node.get("status").asString())
                .isEqualTo("COMPLETED"));
    }

    /** Each node's iterations, in ascending order. */
    private static Map<String, List<Integer>> iterations(JsonNode nodes) {
        Map<String, List<Integer>> iterations = new TreeMap<>();
        for (JsonNode node : nodes) {
            iterations.computeIfAbsent(node.get("node").asString(), id -> new ArrayList<>())
                    .add(node.get("iteration").asInt());
        }
        iterations.values().forEach(list -> list.sort(Integer::compare));
        return iterations;
    }
}
