package io.tokenflow.agents.bridge;

import java.time.Duration;
import java.util.random.RandomGenerator;

import io.tokenflow.agents.registry.RetryPolicy;

/**
 * Delays between calls: the n-th retry (from 1) waits {@code min(initial * multiplier^(n-1), max)}, of which a random
 * part (up to half) is dropped ("equal jitter"), so agents that failed together are not retried in lockstep.
 */
record Backoff(RetryPolicy policy, RandomGenerator random) {

    Duration before(int retry) {
        double exponential = policy.initialDelay().toMillis() * Math.pow(policy.multiplier(), retry - 1);
        long capped = (long) Math.min(exponential, policy.maxDelay().toMillis());
        long half = capped / 2;
        return Duration.ofMillis(capped - half + (half == 0 ? 0 : random.nextLong(half + 1)));
    }
}
