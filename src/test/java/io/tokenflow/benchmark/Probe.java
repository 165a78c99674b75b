package io.tokenflow.benchmark;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

import io.tokenflow.workers.function.FunctionCall;
import io.tokenflow.workers.function.WorkflowFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A no-op function that notes when each node of each run executes (System.nanoTime), and releases a permit when a
 * run's last node executes, so the driver can keep a fixed number of runs in flight.
 */
final class Probe implements WorkflowFunction {

    static final String NAME = "bench_probe";
    private static final JsonNode OUTPUT = JsonNodeFactory.instance.objectNode();

    final Map<String, Long> executedAt = new ConcurrentHashMap<>();
    final Map<String, Long> finishedAt = new ConcurrentHashMap<>();
    volatile Semaphore inFlight = new Semaphore(Integer.MAX_VALUE);
    volatile String lastNode = "";

    @Override
    public String name() {
        return NAME;
    }

    /** Stands in for {@code noop}, which is side-effect free: the worker runs it while it checks the run's status. */
    @Override
    public boolean sideEffectFree() {
        return true;
    }

    @Override
    public JsonNode apply(FunctionCall call) {
        long now = System.nanoTime();
        executedAt.put(call.runId() + "/" + call.nodeId(), now);
        if (call.nodeId().equals(lastNode) && finishedAt.putIfAbsent(call.runId().toString(), now) == null) {
            inFlight.release();
        }
        return OUTPUT;
    }

    void reset(String terminal, int window) {
        executedAt.clear();
        finishedAt.clear();
        lastNode = terminal;
        inFlight = new Semaphore(window);
    }
}
