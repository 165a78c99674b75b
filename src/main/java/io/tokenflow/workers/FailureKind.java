package io.tokenflow.workers;

import java.util.Locale;

/** Whether retrying a failed task may help (network, 5xx, timeouts) or not (bad input, 4xx, a broken expression). */
public enum FailureKind {
    TRANSIENT, PERMANENT;

    /** The wire form in a completion's {@code error.kind}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
