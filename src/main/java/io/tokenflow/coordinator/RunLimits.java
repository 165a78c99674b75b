package io.tokenflow.coordinator;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Guardrails every run gets, whoever (person or agent) shapes it.
 *
 * @param maxHops       node completions one run may route; the one past it fails the run (0: no limit)
 * @param maxFanOut     tokens one completion may emit; more fails the node (0: no limit)
 * @param maxPatches    patches one running run may take
 * @param maxAddedNodes nodes patches may add to a run beyond its pinned version
 */
@ConfigurationProperties("tokenflow.run-limits")
public record RunLimits(int maxHops, int maxFanOut, int maxPatches, int maxAddedNodes) {

    public RunLimits {
        if (maxHops < 0 || maxFanOut < 0 || maxPatches < 0 || maxAddedNodes < 0) {
            throw new IllegalArgumentException("Expected tokenflow.run-limits values >= 0, but found " + maxHops + ", "
                    + maxFanOut + ", " + maxPatches + ", " + maxAddedNodes);
        }
    }
}
