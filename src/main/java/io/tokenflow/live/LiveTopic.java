package io.tokenflow.live;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One topic's subscribers and what changed since its last push. The coalescing rule: a change is pushed at the next
 * tick unless the topic was pushed less than the coalescing interval ago; then it waits, and the latest state wins.
 */
final class LiveTopic {

    final String name;
    final LiveView view;
    final Map<LiveSubscriber, LiveSession> subscribers = new ConcurrentHashMap<>();
    private final Set<LiveSubscriber> fresh = ConcurrentHashMap.newKeySet();
    private Set<UUID> changedRuns = new HashSet<>();
    private boolean changed;
    private boolean flushing;
    private long lastPushNanos = Long.MIN_VALUE / 2;

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

    /** Whether a push is due now; marks the topic as being flushed. */
    synchronized boolean due(long now, long coalesceNanos) {
        if (flushing || (!changed && fresh.isEmpty())) {
            return false;
        }
        if (fresh.isEmpty() && now - lastPushNanos < coalesceNanos) {
            return false;
        }
        flushing = true;
        return true;
    }

    /** Takes what changed since the last push (the subscribers that need everything, and the changed runs). */
    synchronized Pending take(long now) {
        Set<UUID> runs = changedRuns;
        boolean anyChange = changed;
        changedRuns = new HashSet<>();
        changed = false;
        Set<LiveSubscriber> full = new HashSet<>(fresh);
        fresh.removeAll(full);
        if (anyChange) {
            lastPushNanos = now;
        }
        return new Pending(anyChange, runs, full);
    }

    synchronized void flushed() {
        flushing = false;
    }

    record Pending(boolean changed, Set<UUID> runs, Set<LiveSubscriber> full) {
    }
}
