package io.tokenflow.workers.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.lettuce.core.Consumer;
import io.lettuce.core.XClaimArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * The tokens one consumer has read and not yet finished, readable from another thread so that a {@link LeaseRenewer}
 * can keep them from being claimed by other consumers while a slow task runs, and a {@link StartAnnouncer} can report
 * the start of slow work.
 */
final class HeldTokens {

    private volatile List<TaskEntry> entries = List.of();
    private volatile int next;
    private volatile long heldSince;
    private volatile Working working;
    private TaskEntry announced;

    void hold(List<TaskEntry> batch) {
        next = 0;
        heldSince = System.nanoTime();
        entries = batch;
    }

    /** Entries before {@code index} are done; the one at {@code index} is being worked on from now. */
    void advance(int index) {
        next = index;
        List<TaskEntry> batch = entries;
        working = index < batch.size() ? new Working(batch.get(index), System.nanoTime(), System.currentTimeMillis())
                : null;
    }

    /** Entries before {@code index} are someone else's now (handed over to a running thread, {@link TaskPool}). */
    void handedOver(int index) {
        next = index;
    }

    void release() {
        working = null;
        entries = List.of();
    }

    /**
     * The entry being worked on, when that has taken longer than {@code nanos} and it was not returned before (each
     * entry at most once); called by one other thread.
     */
    Optional<Working> workingLongerThan(long nanos) {
        Working now = working;
        if (now == null || now.entry() == announced || System.nanoTime() - now.sinceNanos() <= nanos) {
            return Optional.empty();
        }
        announced = now.entry();
        return Optional.of(now);
    }

    /** An entry being worked on since then. */
    record Working(TaskEntry entry, long sinceNanos, long sinceMillis) {
    }

    /**
     * Resets the idle time of the entries not yet finished, when the batch has been held longer than {@code nanos}
     * ({@code XCLAIM … JUSTID} to the consumer that holds them); called by another thread.
     */
    void renew(RedisClusterCommands<String, String> redis, Consumer<String> consumer, long nanos) {
        unfinishedHeldLongerThan(nanos).forEach((stream, ids) ->
                redis.xclaim(stream, consumer, XClaimArgs.Builder.justid(), ids.toArray(String[]::new)));
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
