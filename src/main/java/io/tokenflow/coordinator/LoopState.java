package io.tokenflow.coordinator;

import java.util.List;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.routing.Routing;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * A completing token's loop state: its iteration (read from where the token is, in workflows with loops) and, for a
 * loop node, how many times its loop went back in the current activation and the iteration it was entered at (the
 * run's loops hash, {@code <passes>@<entry>}, cleared on exit). The Lua step applies the change only if the pass count
 * is still the one read here, and a pass back only if the run's last handed-out iteration is still the one its new
 * iteration follows, so two completions cannot both count the same pass or hand out the same iteration.
 */
record LoopState(String node, int iteration, int passes, int entry, String passesRead) {

    private static final LoopState NONE = new LoopState(null, 0, 0, 0, "");

    static LoopState of(RedisConnections redis, RedisKeys.RunKeys run, WorkflowPlan plan, IrNode node, String token) {
        if (!plan.hasLoops()) {
            return NONE;
        }
        int iteration = TokenPlaces.iterationOf(redis.commands().hget(run.tokens(), token));
        if (node.loop() == null) {
            return new LoopState(null, iteration, 0, 0, "");
        }
        String value = redis.commands().hget(run.loops(), node.id());
        if (value == null) {
            return new LoopState(node.id(), iteration, 0, iteration, "");
        }
        int at = value.indexOf('@');
        return at < 0 ? new LoopState(node.id(), iteration, Integer.parseInt(value), 0, value)
                : new LoopState(node.id(), iteration, Integer.parseInt(value.substring(0, at)),
                Integer.parseInt(value.substring(at + 1)), value);
    }

    /**
     * The Lua arguments of the change: loop field ('' when not a loop node), the pass count read ('' when none), the
     * new pass count with the loop's entry iteration ('' to clear it), and, for a pass back, the run's last handed-out
     * iteration the new one follows ('' when the step hands out none).
     *
     * @param handedOut the iteration a pass back starts (ignored for other steps)
     */
    List<String> field(Routing.LoopStep step, int handedOut) {
        if (node == null || step == Routing.LoopStep.UNCHANGED) {
            return List.of("", "", "", "");
        }
        if (step == Routing.LoopStep.EXITED) {
            return List.of(node, passesRead, "", "");
        }
        return List.of(node, passesRead, value(passes + 1, entry), Integer.toString(handedOut - 1));
    }

    /** A loop's value in the run's loops hash. */
    static String value(int passes, int entry) {
        return passes + "@" + entry;
    }
}
