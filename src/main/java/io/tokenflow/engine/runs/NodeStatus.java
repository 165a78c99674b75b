package io.tokenflow.engine.runs;

/** Status of one node execution (seed 002's vocabulary); legal moves are in {@link NodeStatusTransitions}. */
public enum NodeStatus {
    PENDING, READY, DISPATCHED, RUNNING, COMPLETED, FAILED, CANCELLED;

    /** True once nothing can move the execution any more. */
    public boolean isFinished() {
        return NodeStatusTransitions.targetsOf(this).isEmpty();
    }
}
