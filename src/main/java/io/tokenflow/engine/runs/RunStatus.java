package io.tokenflow.engine.runs;

/** Status of a run; legal moves are in {@link RunStatusTransitions}. */
public enum RunStatus {
    PENDING, RUNNING, COMPLETED, FAILED, CANCELLED;

    /** True once the run has ended: completed, cancelled, or failed (a failed run may still be resumed). */
    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
