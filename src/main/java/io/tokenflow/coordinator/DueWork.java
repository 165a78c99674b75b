package io.tokenflow.coordinator;

/**
 * Work due by a time kept in Redis that is not a coordinator's own (e.g. timers and signal timeouts): done on every
 * poll of {@link DueTimes}, by its thread, after the coordinator's due times. A failure is logged and the work is
 * tried again on the next poll.
 */
public interface DueWork {

    /** Acts on whatever is due now. */
    void actOnDue();
}
