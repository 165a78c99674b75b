package io.tokenflow.engine.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class IrRetryTests {

    @Test
    void waitsGrowByTheMultiplierUpToTheMaximum() {
        IrRetry retry = new IrRetry(6, 100, 3, 1_000, 0, List.of());
        assertThat(List.of(1, 2, 3, 4, 5)).map(attempt -> retry.delayMs(attempt, 0.7))
                .containsExactly(100L, 300L, 900L, 1_000L, 1_000L);
    }

    @Test
    void jitterTakesAtMostItsShareOffEachWait() {
        IrRetry retry = new IrRetry(3, 1_000, 2, 60_000, 0.2, List.of());
        assertThat(retry.delayMs(2, 0)).isEqualTo(2_000);
        assertThat(retry.delayMs(2, 0.5)).isEqualTo(1_800);
        assertThat(retry.delayMs(2, 0.999_999)).isEqualTo(1_600);
    }

    @Test
    void retriesTransientFailuresWhileAttemptsAreLeftAndTheirCodeIsListed() {
        IrRetry any = new IrRetry(3, 10, 2, 100, 0, List.of());
        assertThat(any.retries(1, "transient", null)).isTrue();
        assertThat(any.retries(2, "transient", "x")).isTrue();
        assertThat(any.retries(3, "transient", "x")).as("the last attempt").isFalse();
        assertThat(any.retries(1, "permanent", "x")).isFalse();
        assertThat(any.retries(1, "", null)).as("a failure that does not say it is transient").isFalse();
        IrRetry listed = new IrRetry(3, 10, 2, 100, 0, List.of("http_503", "rate_limited"));
        assertThat(listed.retries(1, "transient", "rate_limited")).isTrue();
        assertThat(listed.retries(1, "transient", "http_500")).isFalse();
    }

    @Test
    void refusesAPolicyThatCannotHold() {
        assertThatThrownBy(() -> new IrRetry(0, 10, 2, 100, 0, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IrRetry(3, 100, 2, 10, 0, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new IrRetry(3, 10, 2, 100, 1.5, List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
