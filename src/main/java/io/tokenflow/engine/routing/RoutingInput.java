package io.tokenflow.engine.routing;

import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.conditions.ConditionContext;

/**
 * What the router may ask about a completion beyond the workflow: read lazily, since most nodes need none of it.
 */
public interface RoutingInput {

    /** The token's loop iteration (0 outside loops, and on the first pass of a loop entered from outside loops). */
    int iteration();

    /** How many times the completing node's loop went back in its current activation (0 on the first pass). */
    int loopPasses();

    /** The iteration at which the completing node's loop was entered: where its tokens go on when it exits. */
    int loopEntry();

    /**
     * The iteration the next pass of a loop starts: one past the last the run handed out, so no two passes of any
     * loop in the run share one. Asked only when the loop goes back.
     */
    int nextIteration();

    /** What a condition sees; {@code contextNodes} are the earlier nodes whose outputs it reads. */
    ConditionContext conditionContext(Set<String> contextNodes);

    /** The agent's routing proposal, when the worker sent one. */
    Optional<AgentDecision> agentDecision();
}
