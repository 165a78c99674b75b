package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeExecutionKey;

/**
 * An event that moves one node execution, keyed by {@code (node, iteration)} (the status derivation of
 * {@code docs/run-events.md}). Shared by the replay and by anything that projects events onto stored executions.
 */
public sealed interface NodeExecutionEvent extends RunEvent permits TokenEmitted, JoinArrived, NodeStarted, NodeWaiting, MapStarted,
        NodeCompleted, NodeFailed, NodeRetrying, NodeParked, NodeReprocessed, NodeDiscarded, NodeUnparked,
        ApprovalRequested,
        ApprovalDecided, ApprovalEscalated {

    int iteration();

    default NodeExecutionKey key() {
        return new NodeExecutionKey(node(), iteration());
    }

    /** The execution after this event; illegal moves are reported to {@code rejected} and not applied. */
    NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected);
}
