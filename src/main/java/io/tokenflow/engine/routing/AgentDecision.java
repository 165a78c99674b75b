package io.tokenflow.engine.routing;

import java.util.List;
import java.util.Objects;

/**
 * What an agent chose for an {@code agent_driven} branch: the next nodes and why. It is only a proposal: the router
 * accepts it when every node is in the branch's {@code available_next_nodes}, else takes the branch's default.
 */
public record AgentDecision(List<String> nextNodes, String reasoning) {

    public AgentDecision {
        nextNodes = List.copyOf(Objects.requireNonNull(nextNodes, "nextNodes"));
    }
}
