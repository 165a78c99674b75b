package io.tokenflow.engine.runs;

/** Status of one node execution (seed 002's vocabulary); legal moves are in {@link NodeStatusTransitions}. */
public enum NodeStatus {
    PENDING, READY, DISPATCHED, RUNNING, COMPLETED, FAILED, CANCELLED;

    /**
     * True once the execution has ended: completed, failed or cancelled (only a resumed run moves a failed or cancelled
     * one on again, see {@link NodeStatusTransitions}).
     */
    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
