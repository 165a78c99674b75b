package io.tokenflow.e2e;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;

/**
 * A {@code gate} function for browser tests: a node {@code {"function": "gate"}} holds its token until the test
 * {@link #open opens} the run's gate (or a minute passes), so a test decides when a run moves on instead of guessing
 * how long the machine needs to show it.
 */
@TestConfiguration(proxyBeanMethods = false)
class Gates {

    private static final Map<UUID, CountDownLatch> GATES = new ConcurrentHashMap<>();

    /** Lets every token of this run waiting at (or later reaching) a gate through. */
    static void open(UUID run) {
        latch(run).countDown();
    }

    private static CountDownLatch latch(UUID run) {
        return GATES.computeIfAbsent(run, key -> new CountDownLatch(1));
    }

    @Bean
    WorkflowFunction gateFunction() {
        return new WorkflowFunction() {
            @Override
            public String name() {
                return "gate";
            }

            @Override
            public JsonNode apply(FunctionCall call) throws InterruptedException {
                latch(call.runId()).await(1, TimeUnit.MINUTES);
                return call.input();
            }
        };
    }
}
