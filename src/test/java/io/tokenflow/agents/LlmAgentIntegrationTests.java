package io.tokenflow.agents;

import static io.tokenflow.agents.FakeLlmServer.answer;
import static io.tokenflow.agents.FakeLlmServer.toolCall;
import static io.tokenflow.agents.FakeLlmServer.toolResults;
import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import io.tokenflow.agents.AgentIntegrationTest.RecordingRunPatcher;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.workers.WorkerHarness;
import tools.jackson.databind.JsonNode;

/**
 * The {@code agent} worker against a fake OpenAI-compatible server on a real socket: tokens from a real Redis
 * stream, the run's plan and context from Redis and PostgreSQL, completions (output and decision) on the real
 * completions stream.
 */
@AgentIntegrationTest
class LlmAgentIntegrationTests {

    private static final String LEAD = "{\"company\":\"Acme\",\"employees\":5000,\"offers\":[{\"plan\":\"pro\","
            + "\"price\":300},{\"plan\":\"basic\",\"price\":100},{\"plan\":\"team\",\"price\":200}]}";

    @Autowired
    RedisConnections connections;

    @Autowired
    RedisKeys keys;

    @Autowired
    CreateWorkflow create;

    @Autowired
    RecordingRunPatcher patcher;

    private final FakeLlmServer llm = FakeLlmServer.INSTANCE;
    private WorkerHarness workers;

    @BeforeEach
    void open() {
        workers = new WorkerHarness(connections.commands(), keys);
    }

    @AfterEach
    void close() {
        workers.close();
    }

    @Test
    void routesALeadToAllowedNodesAfterRunningAPipeline() {
        llm.script(request -> switch (toolResults(request)) {
            case 0 -> toolCall("call_1", "execute_pipeline", "{\"data\":" + json(LEAD).get("offers")
                    + ",\"pipeline\":[{\"step\":\"table_sort\",\"field\":\"price\"},{\"step\":\"top_k\",\"k\":2}]}");
            case 1 -> toolCall("call_2", "route", "{\"next_nodes\":[\"enterprise_sales\"],"
                    + "\"reasoning\":\"5000 employees is an enterprise\"}");
            default -> answer("{\"tier\":\"enterprise\"}");
        }, 50);
        AgentRunHarness harness = harness("valid/lead-qualification-agent");
        UUID run = harness.start("{\"lead_id\":42}", Map.of("enrich_data", LEAD));

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "qualify_lead_agent", "agent",
                LEAD, "{}"));

        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(json(completion.get("decision"))).isEqualTo(json("{\"next_nodes\":[\"enterprise_sales\"],"
                + "\"reasoning\":\"5000 employees is an enterprise\"}"));
        JsonNode output = json(completion.get("output"));
        assertThat(output.get("answer")).isEqualTo(json("{\"tier\":\"enterprise\"}"));
        assertThat(output.get("decision")).isEqualTo(json(completion.get("decision")));
        assertThat(output.get("rounds").asInt()).isEqualTo(3);
        assertThat(output.get("tokens").asLong()).isEqualTo(150);
        assertThat(json(output.at("/tool_calls/0/result").asString()))
                .isEqualTo(json("[{\"plan\":\"basic\",\"price\":100},{\"plan\":\"team\",\"price\":200}]"));
        JsonNode first = llm.requests().get(0);
        assertThat(first.get("model").asString()).isEqualTo("gpt-4");
        assertThat(first.get("temperature").asDouble()).isEqualTo(0.3);
        assertThat(offeredTools(first)).containsExactly("execute_pipeline", "route");
        assertThat(first.at("/tools/1/function/parameters/properties/next_nodes/items/enum"))
                .isEqualTo(json("[\"enterprise_sales\",\"standard_sales\",\"nurture_campaign\",\"disqualify\"]"));
        String context = first.at("/messages/1/content").asString();
        assertThat(context).contains("Decide which path(s) to route this lead to and why.")
                .contains("\"run_input\":{\"lead_id\":42}").contains("\"enrich_data\":{\"company\":\"Acme\"");
    }

    @Test
    void passesOnAForbiddenChoiceForTheCoordinatorToRefuseAndTellsTheModel() {
        llm.script(request -> toolResults(request) < 2
                ? toolCall("call_" + toolResults(request), "route", "{\"next_nodes\":[\"wire_money\"],"
                + "\"reasoning\":\"I insist\"}")
                : answer("done"), 10);
        AgentRunHarness harness = harness("valid/lead-qualification-agent");
        UUID run = harness.start("{}", Map.of());

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "qualify_lead_agent", "agent",
                "{}", "{}"));

        assertThat(json(completion.get("decision"))).isEqualTo(json("{\"next_nodes\":[\"wire_money\"],"
                + "\"reasoning\":\"I insist\"}"));
        assertThat(FakeLlmServer.lastToolResult(llm.requests().get(2))).contains("[wire_money] are not allowed")
                .contains("the run goes to [manual_review]");
        JsonNode calls = json(completion.get("output")).get("tool_calls");
        assertThat(calls.get(0).get("ok").asBoolean()).isFalse();
    }

    @Test
    void patchesItsOwnRunThroughThePatcherAndHearsWhenAPatchIsRefused() {
        String addNode = "{\"patch\":[{\"op\":\"add\",\"path\":\"/nodes/-\",\"value\":{\"id\":\"notify\",\"type\":"
                + "\"function\",\"config\":{\"function\":\"echo\"}}},{\"op\":\"add\",\"path\":\"/edges/-\","
                + "\"value\":{\"from\":\"analyst\",\"to\":\"notify\"}}],\"description\":\"notify ops\"}";
        llm.script(request -> switch (toolResults(request)) {
            case 0 -> toolCall("p1", "patch_workflow", "{\"patch\":[{\"op\":\"remove\",\"path\":\"/nodes/2\"}]}");
            case 1 -> toolCall("p2", "patch_workflow", addNode);
            default -> answer("Added a notification node.");
        }, 10);
        AgentRunHarness harness = harness("agents/analyst");
        UUID run = harness.start("{}", Map.of("fetch", "{\"flights\":[]}"));

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "analyst", "agent", "{}", "{}"));

        assertThat(json(completion.get("output")).get("answer").asString()).isEqualTo("Added a notification node.");
        assertThat(completion).doesNotContainKey("decision");
        assertThat(FakeLlmServer.lastToolResult(llm.requests().get(1))).contains("it was refused")
                .contains("removes /nodes/2");
        assertThat(FakeLlmServer.lastToolResult(llm.requests().get(2))).contains("Patched");
        RecordingRunPatcher.Patched patched = patcher.accepted.stream().filter(p -> p.run().equals(run))
                .findFirst().orElseThrow();
        assertThat(patched.author()).isEqualTo("agent:analyst");
        assertThat(patched.patch()).isEqualTo(json(addNode).get("patch"));
        JsonNode first = llm.requests().get(0);
        assertThat(offeredTools(first)).containsExactly("execute_pipeline", "patch_workflow");
        assertThat(first.get("model").asString()).isEqualTo("fake-model");
        assertThat(first.get("max_tokens").asInt()).isEqualTo(300);
    }

    @Test
    void anAgentWithoutTemperatureCompletesAndLeavesTheTemperatureToTheLlm() {
        llm.script(request -> answer("Two flights, both cheap."), 10);
        AgentRunHarness harness = harness("agents/summarizer");
        UUID run = harness.start("{}", Map.of("fetch", "{\"flights\":[]}"));

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "summarize", "agent", "{}", "{}"));

        assertThat(completion.get("status")).isEqualTo("completed");
        assertThat(json(completion.get("output")).get("answer").asString()).isEqualTo("Two flights, both cheap.");
        assertThat(llm.requests()).hasSize(1);
        assertThat(llm.requests().get(0).has("temperature")).isFalse();
    }

    @Test
    void theLastRoundOffersNoToolsSoTheModelMustAnswer() {
        llm.script(request -> request.has("tools")
                ? toolCall("loop", "execute_pipeline", "{\"pipeline\":[{\"step\":\"top_k\",\"k\":1}],\"data\":[1]}")
                : answer("finally"), 10);
        AgentRunHarness harness = harness("agents/analyst");
        UUID run = harness.start("{}", Map.of());

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "analyst", "agent", "{}", "{}"));

        JsonNode output = json(completion.get("output"));
        assertThat(output.get("answer").asString()).isEqualTo("finally");
        assertThat(output.get("rounds").asInt()).isEqualTo(4);
        assertThat(llm.requests()).hasSize(4);
        assertThat(llm.requests().get(3).has("tools")).isFalse();
    }

    @Test
    void failsTheNodeOnceTheRunHasUsedItsLlmTokens() {
        llm.script(request -> toolResults(request) == 0
                ? toolCall("c", "execute_pipeline", "{\"pipeline\":[{\"step\":\"top_k\",\"k\":0}],\"data\":[]}")
                : answer("too late"), 600);
        AgentRunHarness harness = harness("agents/analyst");
        UUID run = harness.start("{}", Map.of());

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "analyst", "agent", "{}", "{}"));

        assertThat(completion.get("status")).isEqualTo("failed");
        JsonNode error = json(completion.get("error"));
        assertThat(error.get("code").asString()).isEqualTo("llm_token_limit");
        assertThat(error.get("message").asString()).contains("at most 1000 LLM tokens")
                .contains("tokenflow.agents.max-llm-tokens-per-run").contains("have used 1200");
        assertThat(connections.commands().get(keys.llmTokens(run))).isEqualTo("1200");
    }

    @Test
    void anUnauthorizedLlmFailsPermanentlyNamingTheKeyProperty() {
        llm.failWith(401);
        AgentRunHarness harness = harness("agents/analyst");
        UUID run = harness.start("{}", Map.of());

        Map<String, String> completion = workers.awaitCompletion(harness.send(run, "analyst", "agent", "{}", "{}"));

        JsonNode error = json(completion.get("error"));
        assertThat(error.get("kind").asString()).isEqualTo("permanent");
        assertThat(error.get("code").asString()).isEqualTo("llm_http_401");
        assertThat(error.get("message").asString()).contains("tokenflow.agents.llm.api-key");
    }

    private AgentRunHarness harness(String fixture) {
        return new AgentRunHarness(connections.commands(), keys, workers, create, fixture);
    }

    private static java.util.List<String> offeredTools(JsonNode request) {
        java.util.List<String> names = new java.util.ArrayList<>();
        request.path("tools").forEach(tool -> names.add(tool.at("/function/name").asString()));
        return names;
    }
}
