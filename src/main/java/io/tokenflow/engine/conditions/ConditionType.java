package io.tokenflow.engine.conditions;

import tools.jackson.databind.JsonNode;

/**
 * One condition type ({@code cel}, {@code jsonpath}, …): checks its definitions when a workflow compiles and
 * decides them at run time. Definitions come normalised (see {@link ConditionEngine}) and, at run time, exactly as
 * they were checked, possibly after a JSON round trip. Implementations are thread-safe.
 */
interface ConditionType {

    /** The {@code type} member this implementation handles. */
    String name();

    /** Reports every problem of {@code condition} through {@code check}; false when it cannot be used. */
    boolean check(JsonNode condition, ConditionCheck check);

    /**
     * Compiles what evaluating needs (or finds it cached) before the evaluation's deadline starts, so that compiling
     * is never charged to it; members are prepared through {@code engine}.
     *
     * @throws ConditionEvaluationException when the condition does not compile (IR from another build)
     */
    default void prepare(JsonNode condition, ConditionEngine engine) {
    }

    /**
     * @throws ConditionEvaluationException when the condition cannot be decided
     */
    boolean evaluate(JsonNode condition, ConditionEvaluation evaluation);
}
