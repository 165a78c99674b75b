package io.tokenflow.supervisor;

import java.time.Duration;

import org.apache.commons.logging.Log;

/**
 * Growing delays between retries of a failing batch (doubling from {@code initial} up to {@code max}), logging a
 * failure once when a streak begins and once when it ends, not on every attempt.
 */
final class RetryBackoff {

    private final Duration initial;
    private final Duration max;
    private final Log log;
    private final String what;
    private Duration delay;
    private int failures;

    RetryBackoff(Duration initial, Duration max, Log log, String what) {
        this.initial = initial;
        this.max = max;
        this.log = log;
        this.what = what;
        this.delay = initial;
    }

    /** Records a failure; returns how long to wait before the next attempt. */
    Duration failed(Exception cause) {
        if (failures++ == 0) {
            log.warn(what + " failed; retrying with backoff up to " + max + " until it succeeds (logged once)", cause);
        }
        return next();
    }

    void succeeded() {
        if (failures > 0) {
            log.info(what + " succeeded again after " + failures + " failed attempts");
        }
        failures = 0;
        delay = initial;
    }

    private Duration next() {
        Duration current = delay;
        delay = delay.multipliedBy(2).compareTo(max) > 0 ? max : delay.multipliedBy(2);
        return current;
    }
}
