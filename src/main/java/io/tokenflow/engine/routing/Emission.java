package io.tokenflow.engine.routing;

import java.util.Objects;

/**
 * One token a completion sends on.
 *
 * @param join     whether the target waits for all its dependencies (the token parks until the last arrives)
 * @param expected how many arrivals the join waits for (1 when not a join)
 */
public record Emission(String target, int iteration, boolean join, int expected) {

    public Emission {
        Objects.requireNonNull(target, "target");
        if (expected < 1) {
            throw new IllegalArgumentException("Expected at least one arrival, but found " + expected);
        }
    }
}
