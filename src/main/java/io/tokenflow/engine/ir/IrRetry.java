package io.tokenflow.engine.ir;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A node's retry policy: how often a task whose worker reported a transient failure runs again, and how long the
 * engine waits before each new attempt (exponential backoff with jitter). Permanent failures are never retried.
 *
 * @param maxAttempts  attempts at most, the first included ({@code 1}: no retry)
 * @param backoffMs    the wait before the second attempt
 * @param multiplier   each further wait is this many times the previous one
 * @param maxBackoffMs no wait is longer
 * @param jitter       the share of each wait taken off at random (0: exact waits; 0.2: between 80 % and 100 %), so
 *                     that tasks failing together do not all come back together
 * @param retryOn      the error codes retried; empty: every transient failure
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record IrRetry(int maxAttempts, long backoffMs, double multiplier, long maxBackoffMs, double jitter,
                      List<String> retryOn) {

    public static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final long DEFAULT_BACKOFF_MS = 1_000;
    public static final double DEFAULT_MULTIPLIER = 2.0;
    public static final long DEFAULT_MAX_BACKOFF_MS = 60_000;
    public static final double DEFAULT_JITTER = 0.2;

    public IrRetry {
        if (maxAttempts < 1 || backoffMs < 0 || multiplier < 1 || maxBackoffMs < backoffMs || jitter < 0
                || jitter > 1) {
            throw new IllegalArgumentException("Expected a valid retry policy, but found max_attempts " + maxAttempts
                    + ", backoff_ms " + backoffMs + ", multiplier " + multiplier + ", max_backoff_ms " + maxBackoffMs
                    + ", jitter " + jitter);
        }
        retryOn = List.copyOf(retryOn);
    }

    /** Whether a failure of the given attempt is tried again: transient, its code listed (if any are), attempts left. */
    public boolean retries(int failedAttempt, String kind, String code) {
        return failedAttempt < maxAttempts && "transient".equals(kind) && (retryOn.isEmpty() || retryOn.contains(code));
    }

    /**
     * The wait after attempt {@code failedAttempt} failed.
     *
     * @param random a number in [0, 1) that picks the jitter
     */
    public long delayMs(int failedAttempt, double random) {
        double exact = Math.min(maxBackoffMs, backoffMs * Math.pow(multiplier, failedAttempt - 1));
        return Math.round(exact * (1 - jitter * random));
    }
}
