package io.tokenflow.engine.routing;

import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * Where a completion sends its tokens, and why.
 *
 * @param emissions the tokens to emit (none: the path ends here)
 * @param decision  what dynamic routing decided (branch rule, loop step, agent choice) as JSON for the run's events,
 *                  or null for static routing
 * @param loop      how the completing node's loop state changes
 * @param failure   why the completion could not be routed (e.g. a condition that could not be decided), else null;
 *                  the node then fails with this message
 */
public record Routing(List<Emission> emissions, JsonNode decision, LoopStep loop, String failure) {

    public Routing {
        emissions = List.copyOf(emissions);
        Objects.requireNonNull(loop, "loop");
    }

    /** Nothing to route: the completion failed on its own. */
    public static Routing none() {
        return new Routing(List.of(), null, LoopStep.UNCHANGED, null);
    }

    /** A completion that cannot be routed (a condition not decided, a limit passed): the node fails with it. */
    public static Routing failed(String failure) {
        return new Routing(List.of(), null, LoopStep.UNCHANGED, failure);
    }

    public boolean failed() {
        return failure != null;
    }

    /** The change to the completing node's loop pass count kept in Redis. */
    public enum LoopStep {
        /** Not a loop node. */
        UNCHANGED,
        /** The loop goes back: the pass count grows by one. */
        AGAIN,
        /** The loop is left (condition false, or limit reached): the pass count is cleared. */
        EXITED
    }
}
