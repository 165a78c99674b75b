package io.tokenflow.coordinator;

import java.util.UUID;

/** Ends a running run at once, dropping its in-flight tokens and reconciling its counter to 0. */
public interface RunTerminator {

    /** Fails the run (e.g. no activity within the timeout); false when it is not running (or unknown). */
    boolean fail(UUID runId, String reason);

    /** Cancels the run on someone's request; false when it is not running (or unknown). */
    boolean cancel(UUID runId, String by);
}
