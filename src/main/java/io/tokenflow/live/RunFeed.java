package io.tokenflow.live;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunEventType;
import io.tokenflow.engine.replay.RunEvents;

/**
 * The events of one run seen so far, without gaps ({@code seq} 1..{@link #last()}), plus those that arrived ahead of
 * a gap. A gap means events this instance has not seen: they are read from PostgreSQL (or the stream) by
 * {@link RunEventFeeds}. Events are parsed for the replay once, as they join the gapless part.
 */
final class RunFeed {

    private static final Log log = LogFactory.getLog(RunFeed.class);
    private static final Set<String> REPLAYED = Set.copyOf(RunEventType.wireNames());
    private static final Set<String> ENDS = Set.of(RunEventType.RUN_COMPLETED.wireName(),
            RunEventType.RUN_FAILED.wireName(), RunEventType.RUN_CANCELLED.wireName());

    final UUID run;
    final Object loading = new Object();
    volatile boolean loaded;
    long streamScannedAtNanos = Long.MIN_VALUE / 2;
    private final List<LiveEvent> events = new ArrayList<>();
    private final List<RunEvent> replayable = new ArrayList<>();
    private int[] counts = new int[16];
    private final TreeMap<Long, LiveEvent> ahead = new TreeMap<>();
    private long known;

    RunFeed(UUID run) {
        this.run = run;
    }

    synchronized void add(Collection<LiveEvent> incoming) {
        for (LiveEvent event : incoming) {
            if (event.seq() == events.size() + 1) {
                append(event);
            } else if (event.seq() > events.size()) {
                ahead.put(event.seq(), event);
            }
        }
        while (!ahead.isEmpty() && ahead.firstKey() <= events.size() + 1) {
            LiveEvent next = ahead.pollFirstEntry().getValue();
            if (next.seq() == events.size() + 1) {
                append(next);
            }
        }
        known = Math.max(known, events.size());
    }

    private void append(LiveEvent event) {
        events.add(event);
        if (REPLAYED.contains(event.type())) {
            try {
                replayable.add(RunEvents.parse(event.toJson(replayable.size() + 1L)).get(0));
            } catch (IllegalArgumentException malformed) {
                log.warn("Run " + run + " event " + event.seq() + " is left out of its replay: " + malformed.getMessage());
            }
        }
        if (counts.length <= events.size()) {
            counts = Arrays.copyOf(counts, counts.length * 2);
        }
        counts[events.size()] = replayable.size();
    }

    /** Records that the run has reached {@code seq} (e.g. as its Redis state says), seen or not. */
    synchronized void know(long seq) {
        known = Math.max(known, seq);
    }

    synchronized long last() {
        return events.size();
    }

    /** Whether events are known to exist that this feed has not got in order yet. */
    synchronized boolean hasGap() {
        return !ahead.isEmpty() || known > events.size();
    }

    /** Whether the feed holds the run's end (completed, failed or cancelled) with nothing missing before it. */
    synchronized boolean ended() {
        return !events.isEmpty() && ENDS.contains(events.get(events.size() - 1).type()) && !hasGap();
    }

    /** The last seq of the missing range after {@link #last()}. */
    synchronized long missingUpTo() {
        return ahead.isEmpty() ? known : ahead.firstKey() - 1;
    }

    synchronized RunLog log() {
        return new RunLog(events, replayable, Arrays.copyOf(counts, events.size() + 1));
    }

    synchronized int size() {
        return events.size() + ahead.size();
    }
}
