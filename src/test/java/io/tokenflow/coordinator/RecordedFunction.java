package io.tokenflow.coordinator;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;

/**
 * Function {@code recorded}: outputs its input and records the token it ran. A top-level class imported alike by the
 * tests that use it, so those with the same properties share one application context (a nested configuration class
 * of a test is also picked up on its own, which gave its test a context of its own).
 */
@TestConfiguration(proxyBeanMethods = false)
class RecordedFunction {

    /** Tokens the {@code recorded} function ran, in order. */
    static final Queue<String> RECORDED = new ConcurrentLinkedQueue<>();

    @Bean
    WorkflowFunction recorded() {
        return new WorkflowFunction() {
            @Override
            public String name() {
                return "recorded";
            }

            @Override
            public JsonNode apply(FunctionCall call) {
                RECORDED.add(call.tokenId());
                return call.input();
            }
        };
    }
}
