package io.tokenflow.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Percentiles of a sample of durations in nanoseconds, printed in milliseconds. */
final class Stats {

    private final List<Long> samples = new ArrayList<>();

    void add(long nanos) {
        samples.add(nanos);
    }

    int size() {
        return samples.size();
    }

    double percentileMillis(double p) {
        if (samples.isEmpty()) {
            return Double.NaN;
        }
        List<Long> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(p / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1_000_000.0;
    }

    String describe() {
        return String.format("p50 %.3f ms, p99 %.3f ms (n=%d)", percentileMillis(50), percentileMillis(99), size());
    }
}
