package io.tokenflow.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.runs.StartRun;
import tools.jackson.databind.JsonNode;

/**
 * The seed's branch and loop examples on the real engine (built-in workers, coordinator, supervisor): each run takes
 * the path the seed says, loop passes are counted in Redis and cleared on exit, and a condition that cannot be
 * decided fails its node with the reason, without holding up other runs.
 */
@IntegrationTest
@Import(BranchesAndLoopsIntegrationTests.Gateway.class)
class BranchesAndLoopsIntegrationTests {

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired JdbcClient jdbc;
    @Autowired RedisConnections redis;
    @Autowired RedisKeys keys;
    EngineHarness engine;

    @TestConfiguration
    static class Gateway {
        @Bean
        PaymentGateway paymentGateway() {
            return new PaymentGateway();
        }
    }

    @BeforeEach
    void harness() {
        engine = new EngineHarness(creating, starting, jdbc);
    }

    @Test
    void leadScoringTakesTheSeedsBranches() {
        String workflow = engine.workflow("valid/lead-scoring");
        UUID enterprise = engine.start(workflow, "{\"score\": 91, \"revenue\": 250000}");
        UUID smallButHot = engine.start(workflow, "{\"score\": 85, \"revenue\": 20000}");
        UUID standard = engine.start(workflow, "{\"score\": 60, \"revenue\": 250000}");
        UUID nurture = engine.start(workflow, "{\"score\": 12, \"revenue\": 250000}");
        engine.awaitAll(List.of(enterprise, smallButHot, standard, nurture), "COMPLETED", Duration.ofSeconds(60));

        assertThat(ran(enterprise)).containsExactlyInAnyOrder("enrich_data", "score_customer", "enterprise_sales",
                "send_gift");
        assertThat(ran(smallButHot)).containsExactlyInAnyOrder("enrich_data", "score_customer", "standard_sales");
        assertThat(ran(standard)).containsExactlyInAnyOrder("enrich_data", "score_customer", "standard_sales");
        assertThat(ran(nurture)).containsExactlyInAnyOrder("enrich_data", "score_customer", "nurture_campaign");
        JsonNode route = routeOf(enterprise, "score_customer", 0);
        assertThat(route.path("branch").path("rule").asInt()).isZero();
        assertThat(engine.run(enterprise).get("outputs").toString()).contains("enterprise_sales", "send_gift");
    }

    @Test
    void paymentRetryLoopsUntilSuccessThenBranchesByAmount() {
        String workflow = engine.workflow("engine/payment-retry");
        UUID premium = engine.start(workflow, "{\"amount\": 1500, \"succeed_on\": 3}");
        UUID standard = engine.start(workflow, "{\"amount\": 200, \"succeed_on\": 2}");
        engine.awaitAll(List.of(premium, standard), "COMPLETED", Duration.ofSeconds(60));

        assertThat(ran(premium)).containsExactlyInAnyOrder("calculate_total", "call_payment_api", "confirm_payment",
                "send_premium_confirmation", "update_crm");
        assertThat(iterations(premium, "call_payment_api")).containsExactly(0, 1, 2);
        assertThat(routeOf(premium, "call_payment_api", 0).path("loop").path("action").asString()).isEqualTo("again");
        assertThat(routeOf(premium, "call_payment_api", 2).path("loop").path("action").asString()).isEqualTo("break");
        assertThat(ran(standard)).containsExactlyInAnyOrder("calculate_total", "call_payment_api", "confirm_payment",
                "send_standard_confirmation");
        assertThat(iterations(standard, "call_payment_api")).containsExactly(0, 1);
    }

    @Test
    void paymentRetryGivesUpAfterFiveTriesAndRefunds() {
        String workflow = engine.workflow("engine/payment-retry");
        UUID refunded = engine.start(workflow, "{\"amount\": 300, \"error_code\": \"RATE_LIMIT\"}");
        UUID declined = engine.start(workflow, "{\"amount\": 300, \"error_code\": \"CARD_DECLINED\"}");
        engine.awaitAll(List.of(refunded, declined), "COMPLETED", Duration.ofSeconds(60));

        assertThat(ran(refunded)).containsExactlyInAnyOrder("calculate_total", "call_payment_api", "refund_customer");
        assertThat(iterations(refunded, "call_payment_api")).containsExactly(0, 1, 2, 3, 4);
        JsonNode last = routeOf(refunded, "call_payment_api", 4).path("loop");
        assertThat(last.path("action").asString()).isEqualTo("timeout");
        assertThat(last.path("pass").asInt()).isEqualTo(5);
        // a failure that is not worth retrying leaves the loop at once: break path and the branch's default
        assertThat(ran(declined)).containsExactlyInAnyOrder("calculate_total", "call_payment_api", "confirm_payment",
                "manual_review");
        assertThat(iterations(declined, "call_payment_api")).containsExactly(0);
    }

    @Test
    void loopBackToAnEarlierNodeRepeatsTheBodyAndClearsItsCount() {
        String workflow = engine.workflow("engine/loop-back");
        UUID run = engine.start(workflow, "{\"succeed_on\": 3}");
        engine.awaitStatus(run, "COMPLETED");
        assertThat(iterations(run, "fetch")).containsExactly(0, 1, 2);
        assertThat(iterations(run, "check")).containsExactly(0, 1, 2);
        assertThat(iterations(run, "done")).containsExactly(0);
        assertThat(engine.output(run, "done").has("side")).isTrue();
        assertThat(engine.run(run).get("final_counter")).isEqualTo(0);
    }

    @Test
    void loopPassCountLivesInRedisWhileTheLoopRunsAndIsClearedOnExit() {
        String workflow = engine.workflow("engine/payment-retry");
        UUID run = engine.start(workflow, "{\"amount\": 100, \"error_code\": \"TIMEOUT\"}");
        engine.awaitStatus(run, "COMPLETED");
        // a finished run keeps its keys for the retention period (its meta is still there); the loop's count is not
        assertThat(redis.commands().exists(keys.run(run).meta())).isEqualTo(1L);
        assertThat(redis.commands().hlen(keys.run(run).loops())).isZero();
        assertThat(engine.eventTypes(run)).doesNotContain("run.failed");
    }

    @Test
    void aConditionThatCannotBeDecidedFailsItsNodeAndOtherRunsGoOn() {
        String bomb = engine.workflow("engine/condition-bomb");
        String leads = engine.workflow("valid/lead-scoring");
        StringBuilder items = new StringBuilder("[");
        for (int i = 0; i < 500; i++) {
            items.append(i == 0 ? "" : ",").append(i);
        }
        UUID exploding = engine.start(bomb, "{\"items\": " + items + "]}");
        UUID typeError = engine.start(leads, "{\"score\": \"high\", \"revenue\": 1}");
        UUID fine = engine.start(leads, "{\"score\": 70, \"revenue\": 1}");
        engine.awaitStatus(exploding, "FAILED");
        engine.awaitStatus(typeError, "FAILED");
        engine.awaitStatus(fine, "COMPLETED");

        JsonNode error = nodeError(exploding, "decide");
        assertThat(error.path("kind").asString()).isEqualTo("routing");
        assertThat(error.path("message").asString()).contains("decide");
        assertThat(ran(exploding)).doesNotContain("big", "small");
        assertThat(nodeError(typeError, "score_customer").path("message").asString()).contains("score_customer");
    }

    private List<String> ran(UUID run) {
        return jdbc.sql("select distinct node_id from node_executions where run_id = :id and status = 'COMPLETED'")
                .param("id", run).query(String.class).list();
    }

    private List<Integer> iterations(UUID run, String node) {
        return jdbc.sql("select iteration from node_executions where run_id = :id and node_id = :node "
                        + "and status = 'COMPLETED' order by iteration")
                .param("id", run).param("node", node).query(Integer.class).list();
    }

    private JsonNode routeOf(UUID run, String node, int iteration) {
        return jdbc.sql("select data::text from event_log where run_id = :id and node_id = :node "
                        + "and event_type = 'node.completed' and (data->>'iteration')::int = :iteration")
                .param("id", run).param("node", node).param("iteration", iteration).query(String.class).optional()
                .map(EngineHarness.JSON::readTree).map(data -> data.path("route")).orElseThrow();
    }

    private JsonNode nodeError(UUID run, String node) {
        Map<String, Object> row = jdbc.sql("select error from node_executions where run_id = :id and node_id = :node")
                .param("id", run).param("node", node).query().singleRow();
        return EngineHarness.JSON.readTree(String.valueOf(row.get("error")));
    }
}
