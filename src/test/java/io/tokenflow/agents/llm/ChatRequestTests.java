package io.tokenflow.agents.llm;

import static io.tokenflow.workers.TestTasks.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.tokenflow.agents.AgentFailure;
import io.tokenflow.agents.AgentRun;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.TestTasks;
import tools.jackson.databind.node.JsonNodeFactory;

/** Which model and limits an agent node's calls use, and the failure when no LLM is configured. */
class ChatRequestTests {

    @Test
    void failsWithoutAnLlmNamingThePropertiesToSet() {
        AgentSettings.Llm none = new AgentSettings.Llm(null, null, null, null, null, 0, null, 0, 0);

        assertThatThrownBy(() -> LlmAgent.ChatRequest.of(none, run("{}")))
                .isInstanceOfSatisfying(AgentFailure.class, failure -> {
                    assertThat(failure.failure().kind()).isEqualTo(FailureKind.PERMANENT);
                    assertThat(failure.failure().code()).isEqualTo("llm_not_configured");
                    assertThat(failure.getMessage()).contains("agent node 'think'")
                            .contains("tokenflow.agents.llm.base-url").contains("tokenflow.agents.llm.model")
                            .contains("tokenflow.agents.llm.api-key");
                });
        AgentSettings.Llm urlOnly = new AgentSettings.Llm("http://localhost:11434/v1", "", null, null, null, 0,
                null, 0, 0);
        assertThatThrownBy(() -> LlmAgent.ChatRequest.of(urlOnly, run("{}"))).hasMessageContaining("agent.model");
    }

    @Test
    void theNodesAgentSettingsOverrideTheDefaults() throws Exception {
        AgentSettings.Llm defaults = new AgentSettings.Llm("http://llm/v1", "small", null, null,
                Duration.ofSeconds(30), 100, 0.7, 0, 0);

        LlmAgent.ChatRequest plain = LlmAgent.ChatRequest.of(defaults, run("{}"));
        LlmAgent.ChatRequest tuned = LlmAgent.ChatRequest.of(defaults, run("{\"model\":\"large\",\"temperature\":0,"
                + "\"max_tokens\":50,\"timeout_s\":2.5}"));

        assertThat(plain).isEqualTo(new LlmAgent.ChatRequest("small", 0.7, 100, Duration.ofSeconds(30)));
        assertThat(tuned).isEqualTo(new LlmAgent.ChatRequest("large", 0.0, 50, Duration.ofMillis(2500)));
    }

    @Test
    void omitsTheTemperatureWhenNeitherTheNodeNorTheSettingsGiveOne() throws Exception {
        AgentSettings.Llm noTemperature = new AgentSettings.Llm("http://llm/v1", "small", null, null, null, 0, null,
                0, 0);

        LlmAgent.ChatRequest plain = LlmAgent.ChatRequest.of(noTemperature, run("{}"));
        LlmAgent.ChatRequest tuned = LlmAgent.ChatRequest.of(noTemperature, run("{\"temperature\":0.2}"));

        assertThat(plain.temperature()).isNull();
        assertThat(plain.body(JsonNodeFactory.instance.arrayNode(), null).has("temperature")).isFalse();
        assertThat(tuned.body(JsonNodeFactory.instance.arrayNode(), null).get("temperature").asDouble())
                .isEqualTo(0.2);
    }

    private static AgentRun run(String agent) {
        IrNode node = new IrNode("think", null, "agent", "agent", "agent", json("{}"), null, List.of(), List.of(),
                true, false, null, null, null, null, null, null, json(agent), List.of(), null, null, null, null, null, null);
        return new AgentRun(TestTasks.task("agent", "{}", "{}"), node, json("{}"), Map.of());
    }
}
