package io.tokenflow.engine.runs;

/** Status of a run; legal moves are in {@link RunStatusTransitions}. */
public enum RunStatus {
    PENDING, RUNNING, COMPLETED, FAILED, CANCELLED;

    /** True once nothing can move the run any more. */
    public boolean isFinished() {
        return RunStatusTransitions.targetsOf(this).isEmpty();
    }
}
