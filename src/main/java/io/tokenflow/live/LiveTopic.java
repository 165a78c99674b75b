package io.tokenflow.live;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One topic's subscribers and what changed since its last push. A change waits for the hub's next round (see
 * {@link LiveUpdates}), and the latest state wins; a page that just subscribed is pushed at the next tick.
 */
final class LiveTopic {

    final String name;
    final LiveView view;
    final Map<LiveSubscriber, LiveSession> subscribers = new ConcurrentHashMap<>();
    private final Set<LiveSubscriber> fresh = ConcurrentHashMap.newKeySet();
    private Set<UUID> changedRuns = new HashSet<>();
    private boolean changed;
    private boolean flushing;
    /** A round came while the topic was still flushing its last push: it is pushed as soon as that is done. */
    private boolean owed;

    LiveTopic(String name, LiveView view) {
        this.name = name;
        this.view = view;
    }

    synchronized void changed(UUID run) {
        changed = true;
        changedRuns.add(run);
    }

    /** Marks the topic changed without knowing by which run (e.g. found by a resync). */
    synchronized void changed() {
        changed = true;
    }

    void added(LiveSubscriber subscriber, LiveSession session) {
        subscribers.put(subscriber, session);
        fresh.add(subscriber);
    }

    /** Whether a page's events changed the topic since its last push (not only a resync). */
    synchronized boolean changedByEvents() {
        return !changedRuns.isEmpty();
    }

    /**
     * Whether a push is due now: a page subscribed since the last push, or the topic changed and this tick is a
     * {@code round} (or one passed while it was flushing). Marks the topic as being flushed.
     */
    synchronized boolean due(boolean round) {
        if (flushing) {
            owed |= round && changed;
            return false;
        }
        if (fresh.isEmpty() && !(changed && (round || owed))) {
            return false;
        }
        flushing = true;
        owed = false;
        return true;
    }

    /** Takes what changed since the last push (the subscribers that need everything, and the changed runs). */
    synchronized Pending take() {
        Set<UUID> runs = changedRuns;
        boolean anyChange = changed;
        changedRuns = new HashSet<>();
        changed = false;
        Set<LiveSubscriber> full = new HashSet<>(fresh);
        fresh.removeAll(full);
        return new Pending(anyChange, runs, full);
    }

    synchronized void flushed() {
        flushing = false;
    }

    record Pending(boolean changed, Set<UUID> runs, Set<LiveSubscriber> full) {
    }
}
