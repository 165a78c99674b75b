package io.tokenflow.engine.runs;

import static io.tokenflow.engine.runs.NodeStatus.CANCELLED;
import static io.tokenflow.engine.runs.NodeStatus.COMPLETED;
import static io.tokenflow.engine.runs.NodeStatus.DISPATCHED;
import static io.tokenflow.engine.runs.NodeStatus.FAILED;
import static io.tokenflow.engine.runs.NodeStatus.PENDING;
import static io.tokenflow.engine.runs.NodeStatus.READY;
import static io.tokenflow.engine.runs.NodeStatus.RUNNING;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The legal moves of a node execution (seed 002): created in {@code PENDING}, then
 * {@code Pending → Ready → Dispatched → Running → Completed | Failed | Cancelled}. A fast worker's
 * {@code node.started} may never be reported, so {@code Dispatched → Completed | Failed} is legal too, and every
 * unfinished execution may be cancelled. A failed attempt that its retry policy tries again moves a running execution
 * back to {@code Dispatched} (its token goes back to the workers). When a failed run is resumed
 * ({@code run.resumed}), the executions it failed at or dropped are dispatched again ({@code Failed | Cancelled →
 * Ready}) and the join arrivals it dropped wait again ({@code Cancelled → Pending}); those are the only moves out of a
 * finished status.
 */
public final class NodeStatusTransitions {

    private static final Map<NodeStatus, Set<NodeStatus>> MOVES = new EnumMap<>(NodeStatus.class);

    static {
        MOVES.put(PENDING, EnumSet.of(READY, CANCELLED));
        MOVES.put(READY, EnumSet.of(DISPATCHED, CANCELLED));
        MOVES.put(DISPATCHED, EnumSet.of(RUNNING, COMPLETED, FAILED, CANCELLED));
        MOVES.put(RUNNING, EnumSet.of(DISPATCHED, COMPLETED, FAILED, CANCELLED));
        MOVES.put(COMPLETED, EnumSet.noneOf(NodeStatus.class));
        MOVES.put(FAILED, EnumSet.of(READY));
        MOVES.put(CANCELLED, EnumSet.of(READY, PENDING));
    }

    private NodeStatusTransitions() {
    }

    public static boolean allows(NodeStatus from, NodeStatus to) {
        return MOVES.get(from).contains(to);
    }

    /** The statuses an execution may move to from {@code from}. */
    public static Set<NodeStatus> targetsOf(NodeStatus from) {
        Set<NodeStatus> targets = EnumSet.noneOf(NodeStatus.class);
        targets.addAll(MOVES.get(from));
        return targets;
    }

    /** The statuses from which an execution may move to {@code to}. */
    public static Set<NodeStatus> sourcesOf(NodeStatus to) {
        Set<NodeStatus> sources = EnumSet.noneOf(NodeStatus.class);
        MOVES.forEach((from, targets) -> {
            if (targets.contains(to)) {
                sources.add(from);
            }
        });
        return sources;
    }
}
