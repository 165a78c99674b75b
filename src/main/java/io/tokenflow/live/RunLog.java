package io.tokenflow.live;

import java.util.List;

import io.tokenflow.engine.replay.RunEvent;

/**
 * A run's events from seq 1 without gaps, as seen at one moment, and the same events as the replay reads them
 * (parsed once, when they arrive; types the replay does not know are left out and the others numbered 1..n).
 *
 * @param counts {@code counts[i]}: how many replay events the first {@code i} events hold
 */
public record RunLog(List<LiveEvent> events, List<RunEvent> replayable, int[] counts) {

    public RunLog {
        events = List.copyOf(events);
        replayable = List.copyOf(replayable);
    }

    /** The log of these events (in seq order from 1; events after a gap are left out). */
    public static RunLog of(java.util.Collection<LiveEvent> events) {
        RunFeed feed = new RunFeed(null);
        feed.add(events);
        return feed.log();
    }

    public int size() {
        return events.size();
    }

    /** The replay events among the first {@code upTo} events. */
    public List<RunEvent> replayableUpTo(int upTo) {
        return replayable.subList(0, counts[upTo]);
    }
}
