package io.tokenflow.coordinator;

import java.time.Instant;
import java.util.UUID;

/** Ends a running run at once, dropping its in-flight tokens and reconciling its counter to 0. */
public interface RunTerminator {

    /**
     * Fails the run for inactivity, only if it has had no activity after {@code idleSince} (checked in the same atomic
     * step, so activity arriving meanwhile spares it); false when it was active since, is not running or is unknown.
     */
    boolean failIdle(UUID runId, Instant idleSince, String reason);

    /** Cancels the run on someone's request; false when it is not running (or unknown). */
    boolean cancel(UUID runId, String by);

    /** Fails the run now (e.g. its deadline passed); false when it is not running (or unknown). */
    boolean fail(UUID runId, String reason);
}
