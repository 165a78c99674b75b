package io.tokenflow.coordinator;

import java.util.List;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.routing.Routing;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * A completing token's loop state: its iteration (read from where the token is, in workflows with loops) and, for a
 * loop node, how many times its loop went back in the current activation (the run's loops hash, cleared on exit).
 * The Lua step applies the change only if the pass count is still the one read here, so two completions cannot both
 * count the same pass.
 */
record LoopState(String node, int iteration, int passes, String passesRead) {

    private static final LoopState NONE = new LoopState(null, 0, 0, "");

    static LoopState of(RedisConnections redis, RedisKeys.RunKeys run, WorkflowPlan plan, IrNode node, String token) {
        if (!plan.hasLoops()) {
            return NONE;
        }
        int iteration = TokenPlaces.iterationOf(redis.commands().hget(run.tokens(), token));
        if (node.loop() == null) {
            return new LoopState(null, iteration, 0, "");
        }
        String passes = redis.commands().hget(run.loops(), node.id());
        return new LoopState(node.id(), iteration, passes == null ? 0 : Integer.parseInt(passes),
                passes == null ? "" : passes);
    }

    /**
     * The Lua arguments of the change: loop field ('' when not a loop node), the pass count read ('' when none), the
     * new pass count ('' to clear it).
     */
    List<String> field(Routing.LoopStep step) {
        if (node == null || step == Routing.LoopStep.UNCHANGED) {
            return List.of("", "", "");
        }
        return List.of(node, passesRead, step == Routing.LoopStep.AGAIN ? Integer.toString(passes + 1) : "");
    }
}
