package io.tokenflow.engine.conditions;

import java.util.LinkedHashMap;
import java.util.Map;

import io.tokenflow.engine.cel.CelValues;
import tools.jackson.databind.JsonNode;

/**
 * One evaluation of a condition and its members: what they see, when they must give up, and the context converted
 * to CEL values once for all the CEL members.
 */
final class ConditionEvaluation {

    private final ConditionEngine engine;
    private final ConditionContext context;
    private final Deadline deadline;
    private Map<String, Object> celVariables;

    ConditionEvaluation(ConditionEngine engine, ConditionContext context, Deadline deadline) {
        this.engine = engine;
        this.context = context;
        this.deadline = deadline;
    }

    ConditionContext context() {
        return context;
    }

    Deadline deadline() {
        return deadline;
    }

    /** Decides a member condition within the same deadline. */
    boolean member(JsonNode condition) {
        return engine.decide(condition, this);
    }

    /** The output of an earlier node, or an error saying that it has none in this run. */
    JsonNode outputOf(String node) {
        JsonNode output = context.nodeOutputs().get(node);
        if (output == null) {
            throw new ConditionEvaluationException("Expected node '" + node + "' to have an output for this "
                    + "condition, but it has none in this run (it has not run, or not on this path)");
        }
        return output;
    }

    /** {@code output}, {@code input}, {@code ctx.<node>.output} and {@code current.output} as CEL values. */
    Map<String, Object> celVariables() {
        if (celVariables == null) {
            Object output = CelValues.toCel(context.output());
            Map<String, Object> ctx = new LinkedHashMap<>();
            context.nodeOutputs().forEach((node, value) -> ctx.put(node, Map.of("output", CelValues.toCel(value))));
            celVariables = Map.of("output", output, "input", CelValues.toCel(context.input()), "ctx", ctx,
                    "current", Map.of("output", output));
        }
        return celVariables;
    }
}
