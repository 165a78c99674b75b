package io.tokenflow.workers.function;

import tools.jackson.databind.JsonNode;

/**
 * A function that {@code function} nodes can name in {@code config.function}; add one by declaring a Spring bean.
 * Names are unique across all beans (built-ins included). A function may run more than once for one token (delivery
 * is at least once): use {@link FunctionCall#tokenId()} as the idempotency key of side effects. Throw
 * {@link FunctionFailedException} to fail with a chosen kind; any other exception fails permanently, except I/O and
 * time-outs, which fail transiently.
 */
public interface WorkflowFunction {

    String name();

    /** The node's output, any JSON value. */
    JsonNode apply(FunctionCall call) throws Exception;

    /** Whether the function only computes its output from the call (see {@code TaskHandler#sideEffectFree}). */
    default boolean sideEffectFree() {
        return false;
    }
}
