package io.tokenflow.engine.ir;

import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A run's deadline: the longest it may run (from its start), and how it ends when that passes: {@code fail} (the
 * default) or {@code cancel}. Either way its running tasks are stopped and its tokens dropped.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IrDeadline(long ms, String action) {

    public static final String FAIL = "fail";
    public static final String CANCEL = "cancel";

    public IrDeadline {
        if (ms < 1 || !(FAIL.equals(action) || CANCEL.equals(action))) {
            throw new IllegalArgumentException("Expected a deadline of at least 1 ms that fails or cancels, but found "
                    + ms + " ms, " + action);
        }
    }

    public boolean cancels() {
        return CANCEL.equals(action);
    }
}
