package io.tokenflow.engine.dsl;

import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * Repetition on any node: while {@code condition} holds (always, when absent) go back to {@code loopBackTo}, at most
 * {@code maxIterations} times; then {@code breakPath}, or {@code timeoutPath} when the limit is hit.
 *
 * @param breakPath {@code null} when not given: the node's plain edges are the way out
 */
public record LoopDefinition(String pointer, JsonNode condition, int maxIterations, Target loopBackTo,
                             List<Target> breakPath, List<Target> timeoutPath) {

    public LoopDefinition {
        Objects.requireNonNull(pointer, "pointer");
        breakPath = breakPath == null ? null : List.copyOf(breakPath);
        timeoutPath = List.copyOf(timeoutPath);
    }
}
