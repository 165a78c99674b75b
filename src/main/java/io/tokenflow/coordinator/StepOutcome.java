package io.tokenflow.coordinator;

/** What a Lua step answered, from its integer reply (negative codes are refusals). */
public enum StepOutcome {
    APPLIED, DUPLICATE, UNKNOWN_RUN, UNKNOWN_TOKEN, NOT_RUNNING, NOT_KEPT, STALE_REVISION, LOOP_MOVED, ACTIVE_SINCE;

    public static StepOutcome of(long reply) {
        if (reply >= 0) {
            return APPLIED;
        }
        return switch ((int) reply) {
            case -1 -> DUPLICATE;
            case -2 -> UNKNOWN_RUN;
            case -3 -> UNKNOWN_TOKEN;
            case -4 -> NOT_RUNNING;
            case -5 -> NOT_KEPT;
            case -6 -> STALE_REVISION;
            case -7 -> LOOP_MOVED;
            case -8 -> ACTIVE_SINCE;
            default -> throw new IllegalStateException("Expected a known reply code from a Lua step, but got " + reply);
        };
    }
}
