package io.tokenflow.triggers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Webhooks through the whole filter chain (no session, no CSRF token: the trigger's secret is the credential), on the
 * real engine: a good secret or signature starts a run that completes; every refusal answers problem+json and is
 * recorded.
 */
@IntegrationTest
@AutoConfigureMockMvc
class WebhooksIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    MockMvc mvc;
    String workflow;

    @BeforeEach
    void workflow() throws Exception {
        workflow = TestWorkflows.unique("webhooks");
        mvc.perform(post("/api/v1/workflows").contentType(MediaType.APPLICATION_JSON)
                        .content(TestWorkflows.fixture("triggers/webhooks", workflow))
                        .with(user("dora").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isCreated());
    }

    @Test
    void aCallWithTheTriggersSecretStartsARunThatCompletes() throws Exception {
        String secret = issueSecret("orders");
        String answer = mvc.perform(post("/hooks/" + workflow + "/orders").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"order\": 42}").header("X-Tokenflow-Secret", secret))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("/api/v1/runs/")))
                .andReturn().getResponse().getContentAsString();
        String run = JSON.readTree(answer).get("run_id").asString();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode detail = read(get("/api/v1/runs/" + run));
            assertThat(detail.get("status").asString()).isEqualTo("COMPLETED");
            assertThat(detail.at("/outputs/A/order").asInt()).isEqualTo(42);
        });
    }

    @Test
    void aCallSignedWithTheTriggersSecretStartsARun() throws Exception {
        String secret = issueSecret("signed");
        byte[] body = "{\"order\": 7}".getBytes(StandardCharsets.UTF_8);
        mvc.perform(post("/hooks/" + workflow + "/signed").contentType(MediaType.APPLICATION_JSON).content(body)
                        .header("X-Tokenflow-Signature", "sha256=" + WebhookAuthentication.hmac(secret, body)))
                .andExpect(status().isCreated()).andExpect(jsonPath("$.run_id").isNotEmpty());
    }

    @Test
    void aBadSignatureIsRefusedAndRecorded() throws Exception {
        String secret = issueSecret("signed");
        byte[] signed = "{\"order\": 7}".getBytes(StandardCharsets.UTF_8);
        mvc.perform(post("/hooks/" + workflow + "/signed").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"order\": 8}").header("X-Tokenflow-Signature",
                                "sha256=" + WebhookAuthentication.hmac(secret, signed)))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("does not match")));
        JsonNode refusals = JSON.readTree(mvc.perform(get("/api/v1/workflows/" + workflow + "/triggers/refusals")
                        .with(user("ada").roles("ADMIN")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
        assertThat(refusals).hasSize(1);
        assertThat(refusals.get(0).get("trigger").asString()).isEqualTo("signed");
        assertThat(refusals.get(0).get("status").asInt()).isEqualTo(401);
        assertThat(refusals.get(0).get("bodyBytes").asInt()).isEqualTo(12);
        assertThat(refusals.get(0).get("reason").asString()).contains("X-Tokenflow-Signature");
        assertThat(refusals.get(0).has("body")).isFalse();
    }

    @Test
    void onlyAdminsReadTheRefusals() throws Exception {
        mvc.perform(get("/api/v1/workflows/" + workflow + "/triggers/refusals").with(user("dora").roles("DESIGNER")))
                .andExpect(status().isForbidden());
    }

    @Test
    void aWrongOrMissingSecretAndATriggerWithoutSecretAreRefused() throws Exception {
        mvc.perform(post("/hooks/" + workflow + "/orders").content("{\"order\": 1}")
                        .header("X-Tokenflow-Secret", "whsec_guess"))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.detail")
                        .value(org.hamcrest.Matchers.containsString("none was issued yet")));
        issueSecret("orders");
        mvc.perform(post("/hooks/" + workflow + "/orders").content("{\"order\": 1}")
                        .header("X-Tokenflow-Secret", "whsec_guess"))
                .andExpect(status().isUnauthorized());
        mvc.perform(post("/hooks/" + workflow + "/orders").content("{\"order\": 1}"))
                .andExpect(status().isUnauthorized());
        assertThat(refusalCount()).isEqualTo(3);
    }

    @Test
    void aBodyThatDoesNotMatchTheInputsIsRefusedNamingTheField() throws Exception {
        String secret = issueSecret("orders");
        mvc.perform(post("/hooks/" + workflow + "/orders").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"order\": \"many\"}").header("X-Tokenflow-Secret", secret))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.pointer").value("/inputs/order"));
        mvc.perform(post("/hooks/" + workflow + "/orders").contentType(MediaType.APPLICATION_JSON)
                        .content("[1, 2]").header("X-Tokenflow-Secret", secret))
                .andExpect(status().isBadRequest());
        mvc.perform(post("/hooks/" + workflow + "/orders").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"order\": ").header("X-Tokenflow-Secret", secret))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.type")
                        .value(org.hamcrest.Matchers.endsWith("malformed-json")));
        assertThat(refusalCount()).isEqualTo(3);
    }

    @Test
    void unknownTriggersAndWorkflowsAre404() throws Exception {
        mvc.perform(post("/hooks/" + workflow + "/nowhere").content("{}"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(post("/hooks/no-such-workflow-" + workflow + "/orders").content("{}"))
                .andExpect(status().isNotFound());
        assertThat(refusalCount()).isEqualTo(1);
    }

    @Test
    void aRepeatedIdempotencyKeyAnswersTheSameRun() throws Exception {
        String secret = issueSecret("orders");
        MockHttpServletRequestBuilder call = post("/hooks/" + workflow + "/orders")
                .contentType(MediaType.APPLICATION_JSON).content("{\"order\": 3}").header("X-Tokenflow-Secret", secret)
                .header("Idempotency-Key", "order-3");
        String first = JSON.readTree(mvc.perform(call).andExpect(status().isCreated()).andReturn().getResponse()
                .getContentAsString()).get("run_id").asString();
        mvc.perform(call).andExpect(status().isOk()).andExpect(jsonPath("$.run_id").value(first))
                .andExpect(jsonPath("$.replayed").value(true));
    }

    @Test
    void listsTheWebhooksWithTheirUrlAndWhetherASecretWasIssued() throws Exception {
        issueSecret("orders");
        JsonNode triggers = read(get("/api/v1/workflows/" + workflow + "/triggers"));
        assertThat(triggers).hasSize(2);
        assertThat(triggers.get(0).get("webhookUrl").asString()).endsWith("/orders").contains("/hooks/");
        assertThat(triggers.get(0).get("secretIssued").asBoolean()).isTrue();
        assertThat(triggers.get(1).get("secretIssued").asBoolean()).isFalse();
        assertThat(triggers.get(1).get("auth").asString()).isEqualTo("hmac");
    }

    @Test
    void theWorkflowPageLoadsTheTriggersTable() throws Exception {
        issueSecret("orders");
        String page = mvc.perform(get("/workflows/" + workflow).with(user("olga").roles("OPERATOR")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        assertThat(page).contains("id=\"triggers\"").contains("hx-get=\"/workflows/");
        String table = mvc.perform(get("/workflows/" + workflow + "/triggers").header("HX-Request", "true")
                        .with(user("olga").roles("OPERATOR")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString();
        assertThat(table).contains("id=\"trigger-orders\"").contains("id=\"trigger-signed\"")
                .contains("/hooks/").contains("auth: hmac");
        assertThat(table.split("no secret issued", -1)).as("only 'signed' lacks a secret").hasSize(2);
    }

    private String issueSecret(String trigger) throws Exception {
        return JSON.readTree(mvc.perform(post("/api/v1/workflows/" + workflow + "/triggers/" + trigger + "/secret")
                        .with(user("dora").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString()).get("secret").asString();
    }

    private int refusalCount() throws Exception {
        return JSON.readTree(mvc.perform(get("/api/v1/workflows/" + workflow + "/triggers/refusals")
                .with(user("ada").roles("ADMIN"))).andReturn().getResponse().getContentAsString()).size();
    }

    private JsonNode read(MockHttpServletRequestBuilder request) throws Exception {
        return JSON.readTree(mvc.perform(request.with(user("olga").roles("OPERATOR", "DESIGNER")))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }
}
