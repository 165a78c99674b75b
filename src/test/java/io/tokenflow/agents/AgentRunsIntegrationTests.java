package io.tokenflow.agents;

import static io.tokenflow.agents.FakeLlmServer.answer;
import static io.tokenflow.agents.FakeLlmServer.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.IntegrationTest;
import io.tokenflow.TestWorkflows;
import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.RunHistory;
import io.tokenflow.runs.RunViews;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * LLM agent nodes on the whole engine, against a fake OpenAI-compatible server on a real socket that answers with
 * tool calls: the agent's choice is taken when allowed and refused (default taken) when not, and an agent that patches
 * its own run adds a node that then runs; the patched run replays from its event log to the state it ended in.
 */
@IntegrationTest
@TestPropertySource(properties = {"tokenflow.agents.llm.model=fake-model", "tokenflow.agents.llm.max-rounds=4"})
@ContextConfiguration(initializers = FakeLlmServer.Initializer.class)
class AgentRunsIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final FakeLlmServer LLM = FakeLlmServer.INSTANCE;

    @Autowired CreateWorkflow creating;
    @Autowired StartRun starting;
    @Autowired RunHistory history;
    @Autowired JdbcClient jdbc;

    @Test
    void routesALeadToTheNodesTheAgentChoseWhenAllowed() {
        LLM.script(steps(toolCall("c1", "route",
                "{\"next_nodes\": [\"enterprise_sales\"], \"reasoning\": \"Revenue above a million\"}"),
                answer("Routed to enterprise sales")), 10);
        UUID run = run("{\"company\": \"Acme\", \"revenue\": 2000000}");
        awaitStatus(run, "COMPLETED");
        assertThat(completed(run)).contains("qualify_lead_agent", "enterprise_sales").doesNotContain("manual_review");
        JsonNode agent = route(run).path("branch").path("agent");
        assertThat(agent.path("accepted").asBoolean()).isTrue();
        assertThat(agent.path("reasoning").asString()).isEqualTo("Revenue above a million");
    }

    @Test
    void refusesAForbiddenChoiceAndTakesTheDefault() {
        LLM.script(steps(toolCall("c1", "route", "{\"next_nodes\": [\"wire_money\"], \"reasoning\": \"trust me\"}"),
                answer("Done")), 10);
        UUID run = run("{\"company\": \"Shady\", \"revenue\": 1}");
        awaitStatus(run, "COMPLETED");
        assertThat(completed(run)).contains("manual_review").doesNotContain("enterprise_sales", "disqualify");
        JsonNode agent = route(run).path("branch").path("agent");
        assertThat(agent.path("accepted").asBoolean()).isFalse();
        assertThat(agent.path("refused").get(0).asString()).isEqualTo("wire_money");
    }

    @Test
    void anAgentPatchesItsOwnRunAndTheAddedNodeRuns() {
        String patch = "{\"patch\": [{\"op\": \"add\", \"path\": \"/nodes/-\", \"value\": {\"id\": \"send_welcome_pack\", "
                + "\"type\": \"function\", \"config\": {\"function\": \"echo\"}}}, {\"op\": \"add\", \"path\": \"/edges/-\", "
                + "\"value\": {\"from\": \"enterprise_sales\", \"to\": \"send_welcome_pack\"}}]}";
        LLM.script(steps(toolCall("c1", "patch_workflow", patch),
                toolCall("c2", "route", "{\"next_nodes\": [\"enterprise_sales\"], \"reasoning\": \"big\"}"),
                answer("Added a welcome pack and routed")), 10);
        UUID run = run("{\"company\": \"Globex\", \"revenue\": 5000000}", "route", "patch_workflow");
        awaitStatus(run, "COMPLETED");

        assertThat(completed(run)).as("what the agent's tools answered: %s", toolResults())
                .contains("enterprise_sales", "send_welcome_pack");
        assertThat(eventTypes(run)).containsSubsequence("run.patched", "node.completed");
        RunViews.Replay replay = history.replay(run, null);
        assertThat(replay.status()).isEqualTo("COMPLETED");
        JsonNode stored = JSON.readTree(jdbc.sql("select outputs::text from runs where id = :id").param("id", run)
                .query(String.class).single());
        assertThat((JsonNode) JSON.valueToTree(replay.outputs())).isEqualTo(stored);
        assertThat(stored.has("send_welcome_pack")).isTrue();
    }

    private static List<String> toolResults() {
        return LLM.requests().stream().map(FakeLlmServer::lastToolResult).toList();
    }

    /** Answers the n-th call of the current script with the n-th message (the last one repeated). */
    private static Function<JsonNode, JsonNode> steps(JsonNode... messages) {
        AtomicInteger call = new AtomicInteger();
        return request -> messages[Math.min(call.getAndIncrement(), messages.length - 1)];
    }

    private UUID run(String inputs, String... tools) {
        String name = TestWorkflows.unique("agent-leads");
        ObjectNode dsl = (ObjectNode) JSON.readTree(TestWorkflows.fixture("valid/lead-qualification-agent", name));
        if (tools.length > 0) {
            ArrayNode wanted = ((ObjectNode) dsl.path("nodes").get(1).path("agent")).putArray("tools");
            List.of(tools).forEach(wanted::add);
        }
        creating.create(dsl, "test");
        return starting.start(new StartRunCommand(name, null, null, JSON.readTree(inputs), null), "test").id();
    }

    private void awaitStatus(UUID run, String status) {
        await().atMost(Duration.ofSeconds(60)).until(() -> status.equals(jdbc.sql("select status from runs where id = :id")
                .param("id", run).query(String.class).optional().orElse("")));
    }

    private List<String> completed(UUID run) {
        return jdbc.sql("select node_id from node_executions where run_id = :id and status = 'COMPLETED'")
                .param("id", run).query(String.class).list();
    }

    private List<String> eventTypes(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = :id order by seq").param("id", run)
                .query(String.class).list();
    }

    private JsonNode route(UUID run) {
        return JSON.readTree(jdbc.sql("select data::text from event_log where run_id = :id and node_id = "
                        + "'qualify_lead_agent' and event_type = 'node.completed'").param("id", run).query(String.class)
                .single()).path("route");
    }
}
