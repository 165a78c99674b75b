package io.tokenflow.workers;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.IntegrationTest;
import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The whole application with its worker runtime running, a short claim timeout (so crash recovery is quick to
 * test) and one added workflow function, {@code greet}. All worker integration tests share this one context.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@IntegrationTest
// The workers alone: no coordinator or supervisor consumes (and deletes) the completions these tests read.
@TestPropertySource(properties = {"tokenflow.workers.claim-idle=500ms", "tokenflow.workers.claim-interval=200ms",
        "tokenflow.coordinator.enabled=false", "tokenflow.supervisor.enabled=false"})
@Import(WorkerIntegrationTest.Functions.class)
public @interface WorkerIntegrationTest {

    @TestConfiguration(proxyBeanMethods = false)
    class Functions {

        @Bean
        WorkflowFunction greet() {
            return new WorkflowFunction() {
                @Override
                public String name() {
                    return "greet";
                }

                @Override
                public JsonNode apply(FunctionCall call) {
                    return JsonNodeFactory.instance.objectNode()
                            .put("greeting", call.args().path("salutation").asString("Hello") + ", "
                                    + call.input().path("name").asString() + "!")
                            .put("token", call.tokenId()).put("run", call.runId().toString());
                }
            };
        }
    }
}
