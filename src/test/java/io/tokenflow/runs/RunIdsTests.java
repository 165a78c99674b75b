package io.tokenflow.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class RunIdsTests {

    private static final Instant AT = Instant.parse("2026-11-22T12:00:00.123Z");

    @Test
    void areVersionSevenUuidsCarryingTheirMillisecond() {
        UUID id = new RunIds(Clock.fixed(AT, ZoneOffset.UTC)).next();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(AT.toEpochMilli());
        assertThat(id.toString()).startsWith("%012x".formatted(AT.toEpochMilli()).substring(0, 8));
    }

    @Test
    void sortByStartTimeInPostgresOrder() {
        UUID earlier = new RunIds(Clock.fixed(AT, ZoneOffset.UTC)).next();
        UUID later = new RunIds(Clock.fixed(AT.plusMillis(1), ZoneOffset.UTC)).next();

        // PostgreSQL orders uuids by their bytes, which is the order of their text
        assertThat(earlier.toString()).isLessThan(later.toString());
    }

    @Test
    void differWithinOneMillisecond() {
        RunIds ids = new RunIds(Clock.fixed(AT, ZoneOffset.UTC));
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            seen.add(ids.next());
        }

        assertThat(seen).hasSize(100_000);
    }
}
