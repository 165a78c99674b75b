package io.tokenflow.workers.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokens one consumer has read and not yet finished, readable from another thread so that a {@link LeaseRenewer}
 * can keep them from being claimed by other consumers while a slow task runs.
 */
final class HeldTokens {

    private volatile List<TaskEntry> entries = List.of();
    private volatile int next;
    private volatile long heldSince;

    void hold(List<TaskEntry> batch) {
        next = 0;
        heldSince = System.nanoTime();
        entries = batch;
    }

    /** Entries before {@code index} are done. */
    void advance(int index) {
        next = index;
    }

    void release() {
        entries = List.of();
    }

    /** Stream → entry ids not yet finished, when the batch has been held longer than {@code nanos}. */
    Map<String, List<String>> unfinishedHeldLongerThan(long nanos) {
        List<TaskEntry> batch = entries;
        int from = next;
        Map<String, List<String>> ids = new LinkedHashMap<>();
        if (batch.isEmpty() || System.nanoTime() - heldSince <= nanos) {
            return ids;
        }
        for (TaskEntry entry : batch.subList(Math.min(from, batch.size()), batch.size())) {
            ids.computeIfAbsent(entry.stream(), stream -> new ArrayList<>()).add(entry.id());
        }
        return ids;
    }
}
