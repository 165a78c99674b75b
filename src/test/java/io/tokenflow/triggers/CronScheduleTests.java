package io.tokenflow.triggers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;
import org.springframework.scheduling.support.CronExpression;

/** Which ticks fire, in the trigger's zone, and what missed ticks come to under each policy. */
class CronScheduleTests {

    private static final Duration THRESHOLD = Duration.ofSeconds(10);
    private static final Instant SINCE = Instant.parse("2026-03-01T00:00:00Z");

    private static CronSchedule nightly(boolean fireOnce) {
        return new CronSchedule(CronExpression.parse("0 0 2 * * *"), ZoneId.of("Europe/Berlin"), fireOnce);
    }

    @Test
    void readsTheScheduleInItsTimeZone() {
        assertThat(nightly(false).next(SINCE)).contains(Instant.parse("2026-03-01T01:00:00Z"));
        assertThat(nightly(false).next(Instant.parse("2026-06-01T00:00:00Z")))
                .as("summer time: 02:00 in Berlin is 00:00 UTC").contains(Instant.parse("2026-06-02T00:00:00Z"));
    }

    @Test
    void firesATickFoundWithinTheThreshold() {
        Instant tick = Instant.parse("2026-03-01T01:00:00Z");
        assertThat(nightly(false).due(SINCE, tick.plusSeconds(3), THRESHOLD))
                .containsExactly(new CronSchedule.Fire(tick, true, 0));
    }

    @Test
    void firesNothingBeforeTheNextTick() {
        assertThat(nightly(true).due(SINCE, Instant.parse("2026-03-01T00:59:59Z"), THRESHOLD)).isEmpty();
    }

    @Test
    void skipPassesOverMissedTicksWithOneRecord() {
        Instant now = Instant.parse("2026-03-04T12:00:00Z");
        assertThat(nightly(false).due(SINCE, now, THRESHOLD))
                .containsExactly(new CronSchedule.Fire(Instant.parse("2026-03-04T01:00:00Z"), false, 4));
    }

    @Test
    void fireOnceStartsOneRunForAllMissedTicksAndThenTheTickOnTime() {
        Instant now = Instant.parse("2026-03-04T01:00:02Z");
        assertThat(nightly(true).due(SINCE, now, THRESHOLD)).containsExactly(
                new CronSchedule.Fire(Instant.parse("2026-03-03T01:00:00Z"), true, 3),
                new CronSchedule.Fire(Instant.parse("2026-03-04T01:00:00Z"), true, 0));
    }

    @Test
    void countsAYearOfMissedSecondsWithoutWalkingThemAll() {
        CronSchedule everySecond = new CronSchedule(CronExpression.parse("* * * * * *"), ZoneId.of("UTC"), true);
        Instant now = SINCE.plus(Duration.ofDays(365));
        assertThat(everySecond.due(SINCE, now, THRESHOLD)).first().satisfies(fire -> {
            assertThat(fire.at()).isEqualTo(now.minus(THRESHOLD).minusSeconds(1));
            assertThat(fire.start()).isTrue();
            assertThat(fire.missedTicks()).isGreaterThanOrEqualTo(100_000);
        });
    }
}
