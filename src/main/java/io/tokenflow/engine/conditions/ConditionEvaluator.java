package io.tokenflow.engine.conditions;

/**
 * Decides whether a compiled condition holds for one completion. Implementations are thread-safe, cache whatever
 * they compile (keyed by the condition's JSON definition, since IR is stored as JSON and read back) and bound every
 * evaluation in time, iterations and memory.
 */
public interface ConditionEvaluator {

    /**
     * @throws ConditionEvaluationException when the condition cannot be decided (a runtime error, a missing value, a
     *                                      deadline or budget exceeded); the caller records it on the node
     */
    boolean evaluate(CompiledCondition condition, ConditionContext context);
}
