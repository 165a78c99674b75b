package io.tokenflow.runs;

import java.time.Duration;

/** Durations as run pages write them: {@code 850 ms}, {@code 12.3 s}, {@code 4m 05s}, {@code 2h 03m}. */
final class RunDurations {

    private RunDurations() {
    }

    static String format(Duration duration) {
        long millis = Math.max(0, duration.toMillis());
        if (millis < 1_000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long seconds = millis / 1000;
        if (seconds < 3600) {
            return String.format(java.util.Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
        }
        return String.format(java.util.Locale.ROOT, "%dh %02dm", seconds / 3600, (seconds % 3600) / 60);
    }
}
