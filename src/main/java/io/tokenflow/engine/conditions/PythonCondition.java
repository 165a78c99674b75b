package io.tokenflow.engine.conditions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code {"type": "python_sandbox", "code": "def evaluate(output, context): …", "timeout_ms": 1000,
 * "max_memory_mb": 50}} (or {@code code_ref} to CAS): a Python function deciding the condition, run by a
 * {@link PythonRuntime} within its time and memory limits (at most the configured ones). {@code context} holds the
 * outputs of the nodes in {@code context_nodes} (by default every other node of the workflow). Without a runtime
 * such a condition does not compile, and the message says how to get one.
 */
final class PythonCondition implements ConditionType {

    static final String CONTEXT_NODES = "context_nodes";

    private final Optional<PythonRuntime> runtime;
    private final CasContent cas;
    private final ConditionLimits limits;
    private final ConditionCache<String> code;

    PythonCondition(ConditionLimits limits, CasContent cas, Optional<PythonRuntime> runtime) {
        this.runtime = runtime;
        this.cas = cas;
        this.limits = limits;
        this.code = new ConditionCache<>(limits.cacheSize());
    }

    @Override
    public String name() {
        return "python_sandbox";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        if (runtime.isEmpty()) {
            return check.error("", "Expected a Python runtime for this python_sandbox condition, but "
                    + PythonRuntime.HOW_TO_ENABLE);
        }
        boolean valid = true;
        for (JsonNode node : condition.path(CONTEXT_NODES)) {
            valid &= check.existingNode(node.asString(), "/" + CONTEXT_NODES, "context_nodes");
        }
        String member = condition.has("code") ? "/code" : "/code_ref";
        // read past the cache: whoever compiles must be able to read the code themselves (CAS is per tenant)
        Optional<String> source = condition.path("code").isString() ? source(condition)
                : stored(condition.path("code_ref").asString(""));
        if (source.isEmpty()) {
            return check.error(member, "Expected code_ref to refer to Python code stored in CAS, but "
                    + condition.path("code_ref").asString("") + " holds none");
        }
        Optional<String> problem = runtime.get().check(source.get());
        return problem.map(text -> check.error(member, "Expected Python code defining evaluate(output, context), "
                + "but " + text)).orElse(valid);
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        PythonRuntime python = runtime.orElseThrow(() -> new ConditionEvaluationException(
                "Expected a Python runtime for a python_sandbox condition, but " + PythonRuntime.HOW_TO_ENABLE));
        String program = source(condition).orElseThrow(() -> new ConditionEvaluationException(
                "Expected code_ref " + condition.path("code_ref").asString() + " to hold Python code, but CAS has none"));
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        for (JsonNode node : condition.path(CONTEXT_NODES)) {
            JsonNode output = evaluation.context().nodeOutputs().get(node.asString());
            if (output != null) {
                context.putObject(node.asString()).set("output", output);
            }
        }
        return python.evaluate(program, evaluation.context().output().toString(), context.toString(),
                evaluation.context().input().toString(), timeout(condition), maxMemoryBytes(condition));
    }

    private Duration timeout(JsonNode condition) {
        long requested = condition.path("timeout_ms").asLong(Long.MAX_VALUE);
        return requested > 0 && requested < limits.pythonTimeout().toMillis() ? Duration.ofMillis(requested)
                : limits.pythonTimeout();
    }

    private long maxMemoryBytes(JsonNode condition) {
        long requested = condition.path("max_memory_mb").asLong(Long.MAX_VALUE);
        long megabytes = requested > 0 && requested < limits.pythonMaxMemoryMb() ? requested : limits.pythonMaxMemoryMb();
        return megabytes * 1024 * 1024;
    }

    private Optional<String> source(JsonNode condition) {
        if (condition.path("code").isString()) {
            return Optional.of(condition.get("code").asString());
        }
        String reference = condition.path("code_ref").asString("");
        try {
            return Optional.ofNullable(code.get(reference, ref -> stored(ref).orElse(null)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Optional<String> stored(String reference) {
        try {
            return cas.get(reference).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
