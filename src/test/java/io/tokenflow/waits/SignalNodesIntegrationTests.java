package io.tokenflow.waits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;

/** Signal nodes driven through the REST API ({@code POST /api/v1/signals/{name}}) on real Redis and PostgreSQL. */
@IntegrationTest
@AutoConfigureMockMvc
class SignalNodesIntegrationTests {

    /** Prepare, wait for the payment of the order (or remind after the timeout), ship. */
    private static final String PAYMENT = """
            {"name": "%%s", "nodes": [
               {"id": "prepare", "type": "function", "config": {"function": "echo"},
                "input": {"order": "${workflow.input.order}"}},
               {"id": "paid", "type": "signal",
                "signal": {"name": "%s", "key": "${nodes.prepare.output.order}", "timeout": "%s"%s}},
               {"id": "ship", "type": "function", "config": {"function": "echo"}},
               {"id": "remind", "type": "function", "config": {"function": "echo"}}],
             "edges": [{"from": "prepare", "to": "paid"}, {"from": "paid", "to": "ship"}]}""";

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;
    @Autowired io.tokenflow.redis.RedisConnections redis;
    @Autowired io.tokenflow.redis.RedisKeys keys;

    private WaitingRunsApi api;
    private String signal;

    @BeforeEach
    void api() {
        api = new WaitingRunsApi(mvc, jdbc);
        signal = "payment-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aSignalWithTheRightKeyResumesItsRunOnceAndADuplicateIsAbsorbed() throws Exception {
        String workflow = api.created(PAYMENT.formatted(signal, "PT60S", ", \"timeout_path\": [\"remind\"]"));
        UUID first = api.start(workflow, "{\"order\": \"o-1\"}");
        UUID second = api.start(workflow, "{\"order\": \"o-2\"}");
        api.awaitLogged(first, "node.waiting");
        api.awaitLogged(second, "node.waiting");
        assertThat(api.data(first, "node.waiting", "paid").get("key").asString()).isEqualTo("o-1");

        api.signal(signal, "{\"key\": \"o-9\"}").andExpect(status().isNotFound())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("'o-9'")));
        String message = "{\"key\": \"o-1\", \"payload\": {\"amount\": 5}, \"message_id\": \"bank-77\"}";
        api.signal(signal, message).andExpect(status().isOk())
                .andExpect(jsonPath("$.delivered.length()").value(1))
                .andExpect(jsonPath("$.delivered[0].node").value("paid"))
                .andExpect(jsonPath("$.duplicate").value(false));
        api.signal(signal, message).andExpect(status().isOk()).andExpect(header().string("Idempotent-Replayed", "true"))
                .andExpect(jsonPath("$.duplicate").value(true))
                .andExpect(jsonPath("$.delivered.length()").value(1));

        api.awaitStatus(first, "COMPLETED");
        JsonNode shipped = api.data(first, "node.completed", "ship").get("output");
        assertThat(shipped.get("order").asString()).isEqualTo("o-1");
        assertThat(shipped.get("signal").get("payload").get("amount").asInt()).isEqualTo(5);
        assertThat(shipped.get("signal").get("message_id").asString()).isEqualTo("bank-77");
        assertThat(shipped.get("signal").get("sent_by").asString()).isEqualTo("olga");
        assertThat(api.count(first, "node.completed", "paid")).isOne();
        assertThat(api.count(first, "node.completed", "remind")).isZero();
        assertThat(api.run(second).get("status").asString()).as("the other order still waits").isEqualTo("RUNNING");

        api.signal(signal, "{\"key\": \"o-2\"}").andExpect(status().isOk());
        api.awaitStatus(second, "COMPLETED");
        api.signal(signal, "{\"key\": \"o-2\"}").andExpect(status().isNotFound());
        assertThat(api.count(second, "node.completed", "paid")).isOne();
    }

    @Test
    void aSignalBehindABranchHoldsOnlyTheRunsThatTookItsPath() throws Exception {
        String workflow = api.created("""
                {"name": "%%s", "nodes": [
                   {"id": "route", "type": "function", "config": {"function": "echo"},
                    "branch": {"type": "conditional", "rules": [
                      {"condition": {"type": "cel", "expression": "output.pay == 'card'"}, "next_nodes": ["paid"]}],
                     "default": ["free"]}},
                   {"id": "paid", "type": "signal", "signal": {"name": "%s", "key": "${workflow.input.order}"}},
                   {"id": "free", "type": "function", "config": {"function": "echo"}},
                   {"id": "ship", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "route", "to": "paid"}, {"from": "route", "to": "free"},
                           {"from": "paid", "to": "ship"}, {"from": "free", "to": "ship"}]}""".formatted(signal));
        UUID card = api.start(workflow, "{\"order\": \"o-1\", \"pay\": \"card\"}");
        UUID cash = api.start(workflow, "{\"order\": \"o-2\", \"pay\": \"cash\"}");

        api.awaitStatus(cash, "COMPLETED");
        assertThat(api.count(cash, "node.waiting", null)).isZero();
        api.awaitLogged(card, "node.waiting");
        api.signal(signal, "{\"key\": \"o-2\"}").andExpect(status().isNotFound());
        api.signal(signal, "{\"key\": \"o-1\", \"payload\": {\"amount\": 9}}").andExpect(status().isOk());
        api.awaitStatus(card, "COMPLETED");
        assertThat(api.data(card, "node.completed", "ship").get("output").get("signal").get("payload").toString())
                .isEqualTo("{\"amount\":9}");
        assertThat(api.count(card, "node.completed", "free")).isZero();
    }

    @Test
    void aSignalThatDoesNotComeInTimeTakesTheTimeoutPathOrFailsTheRun() throws Exception {
        String withPath = api.created(PAYMENT.formatted(signal, "PT1S", ", \"timeout_path\": [\"remind\"]"));
        String withoutPath = api.created(PAYMENT.formatted(signal, "PT1S", ""));
        UUID reminded = api.start(withPath, "{\"order\": \"o-3\"}");
        UUID failed = api.start(withoutPath, "{\"order\": \"o-4\"}");

        api.awaitStatus(reminded, "COMPLETED");
        JsonNode timedOut = api.data(reminded, "node.failed", "paid");
        assertThat(timedOut.get("error").get("code").asString()).isEqualTo("signal_timeout");
        assertThat(timedOut.get("next_nodes").toString()).isEqualTo("[\"remind\"]");
        assertThat(api.count(reminded, "node.completed", "remind")).isOne();
        assertThat(api.count(reminded, "node.completed", "ship")).isZero();

        api.awaitStatus(failed, "FAILED");
        assertThat(api.data(failed, "node.failed", "paid").get("error").get("message").asString())
                .isEqualTo("Expected signal '" + signal + "' with key 'o-4' by its timeout, but none came");
        api.signal(signal, "{\"key\": \"o-4\"}").andExpect(status().isNotFound());
    }

    @Test
    void aSignalWaitRedisLostIsHeldAgainByTheRecoveryAndTheSignalResumesItOnce() throws Exception {
        String workflow = api.created(PAYMENT.formatted(signal, "PT10M", ", \"timeout_path\": [\"remind\"]"));
        UUID run = api.start(workflow, "{\"order\": \"o-5\"}");
        api.awaitLogged(run, "node.waiting");
        redis.commands().del(keys.run(run).all().toArray(String[]::new));

        mvc.perform(post("/api/v1/runs/" + run + "/recover").with(user("root").roles("ADMIN")).with(csrf()))
                .andExpect(status().isAccepted());
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> api.count(run, "node.waiting", "paid") == 2);
        api.signal(signal, "{\"key\": \"o-5\"}").andExpect(status().isOk())
                .andExpect(jsonPath("$.delivered.length()").value(1));
        api.awaitStatus(run, "COMPLETED");
        assertThat(api.count(run, "node.completed", "paid")).isOne();
        assertThat(api.count(run, "node.completed", "ship")).isOne();
    }

    @Test
    void aSignalRequestThatIsNotRightIsRefusedNamingWhatIsWrong() throws Exception {
        api.signal("bad:name", "{\"key\": \"o-1\"}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("'bad:name'")));
        api.signal(signal, "{\"payload\": 1}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/key"));
        api.signal(signal, "{\"key\": {\"nested\": true}}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/key"));
        mvc.perform(post("/api/v1/signals/" + signal).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"key\": \"o-1\"}").with(user("ann").roles("APPROVER")).with(csrf()))
                .andExpect(status().isForbidden());
    }
}
