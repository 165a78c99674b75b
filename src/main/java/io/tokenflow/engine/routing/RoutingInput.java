package io.tokenflow.engine.routing;

import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.conditions.ConditionContext;

/**
 * What the router may ask about a completion beyond the workflow: read lazily, since most nodes need none of it.
 */
public interface RoutingInput {

    /** The token's loop iteration (0 outside loops and on the first pass). */
    int iteration();

    /** How many times the completing node's loop went back in its current activation (0 on the first pass). */
    int loopPasses();

    /** What a condition sees; {@code contextNodes} are the earlier nodes whose outputs it reads. */
    ConditionContext conditionContext(Set<String> contextNodes);

    /** The agent's routing proposal, when the worker sent one. */
    Optional<AgentDecision> agentDecision();
}
