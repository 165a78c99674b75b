package io.tokenflow.agents;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.workers.WorkerIntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * The workers alone (see {@link WorkerIntegrationTest}) with agents pointed at {@link FakeLlmServer}, a small per-run
 * LLM token budget (1000), a short external-runner timeout, a {@link RecordingRunPatcher} as the run patcher, and
 * MockMvc for the API.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@WorkerIntegrationTest
@AutoConfigureMockMvc
@TestPropertySource(properties = {"tokenflow.agents.llm.model=fake-model", "tokenflow.agents.llm.max-rounds=4",
        "tokenflow.agents.max-llm-tokens-per-run=1000", "tokenflow.agents.external.timeout=3s"})
@ContextConfiguration(initializers = FakeLlmServer.Initializer.class)
@Import(AgentIntegrationTest.Patcher.class)
public @interface AgentIntegrationTest {

    @TestConfiguration(proxyBeanMethods = false)
    class Patcher {
        @Bean
        @Primary
        RecordingRunPatcher recordingRunPatcher() {
            return new RecordingRunPatcher();
        }
    }

    /** Accepts patches that add things and refuses those that remove, remembering each accepted one. */
    class RecordingRunPatcher implements RunPatcher {

        public final List<Patched> accepted = new CopyOnWriteArrayList<>();

        @Override
        public String patch(UUID runId, JsonNode jsonPatch, String author) {
            for (JsonNode operation : jsonPatch) {
                if (operation.path("op").asString("").equals("remove")) {
                    throw new IllegalArgumentException("Expected no remove operations, but operation "
                            + operation + " removes " + operation.path("path").asString());
                }
            }
            accepted.add(new Patched(runId, jsonPatch, author));
            return Integer.toString(accepted.size());
        }

        public record Patched(UUID run, JsonNode patch, String author) {
        }
    }
}
