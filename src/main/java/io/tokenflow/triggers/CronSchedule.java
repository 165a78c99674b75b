package io.tokenflow.triggers;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.scheduling.support.CronExpression;

/**
 * A cron trigger's schedule in its time zone, and what its due ticks come to. A tick found more than the misfire
 * threshold after its time was missed (no instance ran then): the {@code skip} policy passes over all missed ticks
 * (one {@code skipped} fire records them), {@code fire_once} starts one run for all of them (as Quartz's "fire once
 * now"). Ticks within the threshold each fire.
 */
record CronSchedule(CronExpression expression, ZoneId zone, boolean fireOnce) {

    /** Counting missed ticks stops here; the count then jumps to the last day before the threshold. */
    private static final int COUNT_LIMIT = 100_000;

    static CronSchedule of(Trigger trigger) {
        return new CronSchedule(CronExpression.parse(trigger.cron()), trigger.zone(),
                Trigger.FIRE_ONCE.equals(trigger.missed()));
    }

    /** The first tick after {@code after}, if the schedule has one. */
    Optional<Instant> next(Instant after) {
        ZonedDateTime next = expression.next(after.atZone(zone));
        return Optional.ofNullable(next).map(ZonedDateTime::toInstant);
    }

    /** The fires due for ticks after {@code since} up to {@code now}, oldest first. */
    List<Fire> due(Instant since, Instant now, Duration misfireThreshold) {
        Instant missedBefore = now.minus(misfireThreshold);
        List<Fire> fires = new ArrayList<>();
        Instant lastMissed = null;
        int missed = 0;
        Optional<Instant> tick = next(since);
        while (tick.isPresent() && !tick.get().isAfter(now)) {
            if (tick.get().isBefore(missedBefore)) {
                lastMissed = tick.get();
                missed++;
                boolean jump = missed % COUNT_LIMIT == 0 && tick.get().isBefore(missedBefore.minus(Duration.ofDays(1)));
                tick = next(jump ? missedBefore.minus(Duration.ofDays(1)) : tick.get());
            } else {
                fires.add(new Fire(tick.get(), true, 0));
                tick = next(tick.get());
            }
        }
        if (lastMissed != null) {
            fires.add(0, new Fire(lastMissed, fireOnce, missed));
        }
        return fires;
    }

    /**
     * One claim to make.
     *
     * @param at          the tick (for missed ticks, the last of them)
     * @param start       whether it starts a run ({@code false}: missed ticks skipped)
     * @param missedTicks how many missed ticks it stands for (0 for a tick on time)
     */
    record Fire(Instant at, boolean start, int missedTicks) {
    }
}
