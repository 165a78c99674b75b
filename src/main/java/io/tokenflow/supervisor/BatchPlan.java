package io.tokenflow.supervisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import io.tokenflow.engine.replay.EntryQuarantined;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.quarantine.QuarantinedSeqs;

/**
 * Decides what one batch of entries does to the durable state, given how far each run's event log already goes. A
 * run's events are applied strictly in seq order: events already logged are skipped (redelivery changes nothing),
 * events after a gap wait (their entries stay unacknowledged until the missing ones, e.g. in another supervisor's
 * batch, are logged), and entries of a run with no {@code runs} row wait for its {@code run.started}. Seqs held by an
 * entry in quarantine are logged as {@code entry.quarantined} (when no entry of the batch holds them), so the run's
 * later events, its {@code run.failed} among them, are logged after them.
 *
 * @param applied  per run, the events to apply now, in seq order
 * @param done     entries whose every event is now logged: to acknowledge
 * @param waiting  entries to retry later
 * @param ended    runs whose ending event is logged (now or before): their Redis state may go
 * @param problems events with a seq already used by a different event (the first one seen is kept)
 * @param orphaned entries of runs with no {@code runs} row whose {@code run.started} is in quarantine: they can never
 *                 be logged; by entry id, the quarantined entry that held the start
 */
record BatchPlan(Map<UUID, List<RunEvent>> applied, List<String> done, List<String> waiting, Set<UUID> ended,
                 List<String> problems, Map<String, QuarantinedSeqs> orphaned) {

    /**
     * @param logged for each run that has a {@code runs} row, the last seq in its event log (0 for none)
     */
    static BatchPlan of(List<EventsEntry> entries, Map<UUID, Long> logged) {
        return of(entries, logged, Map.of());
    }

    /**
     * @param skipped for runs with entries in quarantine, the seqs those held (by first seq), not to wait for
     */
    static BatchPlan of(List<EventsEntry> entries, Map<UUID, Long> logged,
                        Map<UUID, NavigableMap<Long, QuarantinedSeqs>> skipped) {
        BatchPlan plan = new BatchPlan(new LinkedHashMap<>(), new ArrayList<>(), new ArrayList<>(),
                new LinkedHashSet<>(), new ArrayList<>(), new LinkedHashMap<>());
        byRun(entries).forEach((run, ofRun) -> plan.planRun(run, ofRun, logged.get(run), skipped.get(run)));
        return plan;
    }

    private static Map<UUID, List<EventsEntry>> byRun(List<EventsEntry> entries) {
        Map<UUID, List<EventsEntry>> byRun = new LinkedHashMap<>();
        entries.forEach(entry -> byRun.computeIfAbsent(entry.run(), run -> new ArrayList<>()).add(entry));
        return byRun;
    }

    private void planRun(UUID run, List<EventsEntry> entries, Long lastLogged,
                         NavigableMap<Long, QuarantinedSeqs> skipped) {
        if (lastLogged == null) {
            QuarantinedSeqs start = quarantined(skipped, 1);
            entries.forEach(entry -> {
                if (start == null) {
                    waiting.add(entry.id());
                } else {
                    orphaned.put(entry.id(), start);
                }
            });
            return;
        }
        TreeMap<Long, RunEvent> bySeq = distinctBySeq(run, entries);
        List<RunEvent> now = new ArrayList<>();
        long next = lastLogged + 1;
        while (true) {
            if (bySeq.containsKey(next)) {
                now.add(bySeq.get(next++));
            } else if (quarantined(skipped, next) != null) {
                QuarantinedSeqs seqs = quarantined(skipped, next);
                now.add(EntryQuarantined.of(next++, seqs.at(), seqs.quarantineId(), seqs.entryId()));
            } else {
                break;
            }
        }
        long last = next - 1;
        if (!now.isEmpty()) {
            applied.put(run, now);
        }
        for (EventsEntry entry : entries) {
            boolean logged = entry.events().stream().allMatch(event -> event.seq() <= last);
            (logged ? done : waiting).add(entry.id());
        }
        if (bySeq.headMap(last, true).values().stream().anyMatch(event -> event.type().releasesRunState())) {
            ended.add(run);
        }
    }

    /** The quarantined entry that held {@code seq}, or null. */
    private static QuarantinedSeqs quarantined(NavigableMap<Long, QuarantinedSeqs> skipped, long seq) {
        Map.Entry<Long, QuarantinedSeqs> held = skipped == null ? null : skipped.floorEntry(seq);
        return held == null || held.getValue().last() < seq ? null : held.getValue();
    }

    private TreeMap<Long, RunEvent> distinctBySeq(UUID run, List<EventsEntry> entries) {
        TreeMap<Long, RunEvent> bySeq = new TreeMap<>();
        entries.stream().flatMap(entry -> entry.events().stream()).forEach(event -> {
            RunEvent first = bySeq.putIfAbsent(event.seq(), event);
            if (first != null && !first.equals(event)) {
                problems.add("Expected seq " + event.seq() + " of run " + run + " to carry one event, but found "
                        + first.type().wireName() + " and a different " + event.type().wireName()
                        + "; the first is kept");
            }
        });
        return bySeq;
    }
}
