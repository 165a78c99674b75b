package io.tokenflow.engine.ir;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A node's own guardrails ({@code limits}), each {@code null} when not set.
 *
 * @param maxHops   how many tokens may reach the node in one run, its first included: the one past it fails the run
 *                  (a loop guard)
 * @param maxFanOut how many tokens one step of the node may emit: more fails the node, as a routing error
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrLimits(Integer maxHops, Integer maxFanOut) {

    public IrLimits {
        if (maxHops != null && maxHops < 1 || maxFanOut != null && maxFanOut < 1) {
            throw new IllegalArgumentException("Expected limits of at least 1, but found max_hops " + maxHops
                    + " and max_fan_out " + maxFanOut);
        }
    }
}
