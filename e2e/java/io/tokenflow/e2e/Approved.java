package io.tokenflow.e2e;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.tokenflow.workers.FailureKind;
import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.FunctionFailedException;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;

/**
 * An {@code approved} function for browser tests: it fails permanently unless its input says {@code "ok": true}, so a
 * test can park a task in the dead-letter queue and reprocess it with an edited input that passes.
 */
@TestConfiguration(proxyBeanMethods = false)
class Approved {

    @Bean
    WorkflowFunction approvedFunction() {
        return new WorkflowFunction() {
            @Override
            public String name() {
                return "approved";
            }

            @Override
            public JsonNode apply(FunctionCall call) {
                if (!call.input().path("ok").asBoolean(false)) {
                    throw new FunctionFailedException("Expected an input with \"ok\": true, but found " + call.input(),
                            FailureKind.PERMANENT, "not_ok");
                }
                return call.input();
            }
        };
    }
}
