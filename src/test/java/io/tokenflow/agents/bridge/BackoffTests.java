package io.tokenflow.agents.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import io.tokenflow.agents.registry.RetryPolicy;

class BackoffTests {

    private final RetryPolicy policy = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(1000), 3.0);

    @Test
    void growsExponentiallyUpToTheMaximumWithHalfOfEachDelayJittered() {
        Backoff backoff = new Backoff(policy, new SplittableRandom(7));
        long[] caps = {100, 300, 900, 1000, 1000};
        for (int retry = 1; retry <= caps.length; retry++) {
            for (int sample = 0; sample < 200; sample++) {
                assertThat(backoff.before(retry).toMillis()).isBetween(caps[retry - 1] / 2, caps[retry - 1]);
            }
        }
    }

    @Test
    void jitterSpreadsTheDelays() {
        Backoff backoff = new Backoff(policy, new SplittableRandom(11));
        long distinct = java.util.stream.IntStream.range(0, 50).mapToLong(i -> backoff.before(3).toMillis())
                .distinct().count();
        assertThat(distinct).isGreaterThan(10);
    }
}
