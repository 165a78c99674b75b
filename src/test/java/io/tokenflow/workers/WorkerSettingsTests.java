package io.tokenflow.workers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class WorkerSettingsTests {

    @Test
    void runsFourFunctionThreadsAndTwoOfEveryOtherTypeByDefault() {
        WorkerSettings settings = settings(null);

        assertThat(settings.concurrencyOf("function")).isEqualTo(4);
        assertThat(settings.concurrencyOf("transform")).isEqualTo(2);
        assertThat(settings.cel().deadline()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void configuredConcurrencyOverridesTheDefaultsAndZeroTurnsATypeOff() {
        WorkerSettings settings = settings(Map.of("http", 0, "function", 1));

        assertThat(settings.concurrencyOf("http")).isZero();
        assertThat(settings.concurrencyOf("function")).isEqualTo(1);
        assertThat(settings.concurrencyOf("filter")).isEqualTo(2);
    }

    @Test
    void rejectsNegativeConcurrency() {
        assertThatThrownBy(() -> settings(Map.of("http", -1)))
                .hasMessageContaining("Expected tokenflow.workers.concurrency.http >= 0, but found -1");
    }

    @Test
    void rejectsAZeroBatchSize() {
        assertThatThrownBy(() -> new WorkerSettings(true, null, 0, Duration.ofSeconds(1), Duration.ofSeconds(30),
                Duration.ofSeconds(5), Duration.ofMillis(200), null)).hasMessageContaining("batch-size >= 1");
    }

    private static WorkerSettings settings(Map<String, Integer> concurrency) {
        return new WorkerSettings(true, concurrency, 32, Duration.ofSeconds(1), Duration.ofSeconds(30),
                Duration.ofSeconds(5), Duration.ofMillis(200), null);
    }
}
