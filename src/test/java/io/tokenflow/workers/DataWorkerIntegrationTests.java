package io.tokenflow.workers;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import tools.jackson.databind.JsonNode;

/** The transform, filter and aggregate workers evaluate real CEL on tokens from real Redis streams. */
@WorkerIntegrationTest
class DataWorkerIntegrationTests {

    private static final String ORDERS = "{\"items\":[{\"region\":\"eu\",\"amount\":10},"
            + "{\"region\":\"us\",\"amount\":4},{\"region\":\"eu\",\"amount\":6}]}";

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    private WorkerHarness harness;
    private UUID run;

    @BeforeEach
    void startRun() {
        harness = new WorkerHarness(connections.commands(), keys);
        run = harness.startRun();
    }

    @AfterEach
    void close() {
        harness.close();
    }

    @Test
    void transformBuildsItsOutputFromExpressions() {
        String token = harness.send("transform", run, ORDERS, "{\"fields\":{"
                + "\"total\":\"input.items.map(i, i.amount).exists(a, a > 5)\",\"n\":\"size(input.items)\"}}");

        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json("{\"total\":true,\"n\":3}"));
    }

    @Test
    void filterKeepsTheMatchingItems() {
        String token = harness.send("filter", run, ORDERS, "{\"predicate\":\"item.region == 'eu'\"}");

        JsonNode output = json(harness.awaitCompletion(token).get("output"));

        assertThat(output.get("count").asInt()).isEqualTo(2);
        assertThat(output.get("items")).isEqualTo(json("[{\"region\":\"eu\",\"amount\":10},"
                + "{\"region\":\"eu\",\"amount\":6}]"));
    }

    @Test
    void aggregateGroupsAndSums() {
        String token = harness.send("aggregate", run, ORDERS, "{\"group_by\":[\"region\"],"
                + "\"aggregations\":[{\"op\":\"sum\",\"field\":\"amount\",\"as\":\"total\"},{\"op\":\"count\"}]}");

        assertThat(json(harness.awaitCompletion(token).get("output"))).isEqualTo(json("{\"groups\":["
                + "{\"key\":{\"region\":\"eu\"},\"total\":16,\"count\":2},"
                + "{\"key\":{\"region\":\"us\"},\"total\":4,\"count\":1}]}"));
    }

    @Test
    void aFailingExpressionFailsTheTokenPermanently() {
        String token = harness.send("transform", run, ORDERS, "{\"fields\":{\"x\":\"input.nothing.here\"}}");

        Map<String, String> completion = harness.awaitCompletion(token);

        assertThat(completion).containsEntry("status", "failed");
        JsonNode error = json(completion.get("error"));
        assertThat(error.get("kind").stringValue()).isEqualTo("permanent");
        assertThat(error.get("message").stringValue()).contains("config.fields.x").contains("input.nothing.here");
    }

    @Test
    void aRunawayComprehensionIsStoppedInsteadOfHanging() {
        String runaway = "true";
        for (int i = 0; i < 12; i++) {
            runaway = "[1,2,3].all(x" + i + ", " + runaway + ")";
        }
        String token = harness.send("transform", run, "{}", "{\"fields\":{\"spin\":\"" + runaway + "\"}}");

        Map<String, String> completion = harness.awaitCompletion(token, Duration.ofSeconds(10));

        assertThat(completion).containsEntry("status", "failed");
        assertThat(json(completion.get("error")).get("kind").stringValue()).isEqualTo("permanent");
    }
}
