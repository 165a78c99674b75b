package io.tokenflow.engine.conditions;

import java.time.Duration;

/** When one evaluation must give up, on the {@link System#nanoTime()} scale; shared by a condition's members. */
record Deadline(long giveUpAtNanos, Duration budget) {

    static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    boolean passed() {
        return System.nanoTime() - giveUpAtNanos > 0;
    }

    /** @throws ConditionEvaluationException once the deadline has passed */
    void check(String what) {
        if (passed()) {
            throw new ConditionEvaluationException("Expected " + what + " to be decided within " + budget.toMillis()
                    + " ms, but it ran longer");
        }
    }
}
