package io.tokenflow.supervisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.quarantine.QuarantinedSeqs;

/**
 * Writes a batch of entries with {@link EventLogWriter}; when PostgreSQL refuses it for what it holds
 * ({@link Refusals}), splits it in halves and writes those, again and again, until the refused entry stands alone. That
 * one goes to the quarantine and its run is failed ({@link PoisonedEntries}); every other entry is written. The halves
 * are written in stream order, first before second, so each run's entries still go in seq order. A batch that failed
 * for any other reason (PostgreSQL unreachable) is thrown back to be retried whole. Only a failed batch is split: a
 * batch that goes through costs what it did.
 */
@Component
class PoisonIsolation {

    private static final Log log = LogFactory.getLog(PoisonIsolation.class);

    private final EventLogWriter writer;
    private final PoisonedEntries poisoned;

    PoisonIsolation(EventLogWriter writer, PoisonedEntries poisoned) {
        this.writer = writer;
        this.poisoned = poisoned;
    }

    /**
     * @param messages the entries as read (the raw text a quarantined entry is kept with)
     * @return the written entries' outcome; a quarantined entry counts as done (to acknowledge)
     */
    EventLogWriter.Outcome write(int shard, String stream, List<EventsEntry> entries,
                                 List<StreamMessage<String, String>> messages) {
        Batch batch = new Batch(shard, stream, messages);
        EventLogWriter.Outcome outcome;
        try {
            outcome = writer.write(shard, entries);
        } catch (RuntimeException e) {
            if (!Refusals.refusesData(e)) {
                throw e;
            }
            log.warn("PostgreSQL refused a batch of " + entries.size() + " entries of shard " + shard + " ("
                    + PoisonedEntries.message(e) + "); splitting it to find the entries at fault");
            outcome = isolate(batch, entries, e);
        }
        return outcome.orphaned().isEmpty() ? outcome : orphansSetAside(batch, entries, outcome);
    }

    /** Sets aside entries that cannot be read; the caller acknowledges them. */
    void setAside(int shard, String stream, List<EventsEntries.Unreadable> unreadable) {
        unreadable.forEach(entry -> poisoned.unreadable(shard, stream, entry));
    }

    private EventLogWriter.Outcome isolate(Batch batch, List<EventsEntry> entries, RuntimeException failure) {
        if (entries.size() == 1) {
            EventsEntry entry = entries.get(0);
            boolean ended = poisoned.refused(batch.shard(), batch.stream(), entry, batch.fields(entry.id()), failure);
            return new EventLogWriter.Outcome(List.of(entry.id()), List.of(), ended ? Set.of(entry.run()) : Set.of(),
                    Map.of());
        }
        int half = entries.size() / 2;
        return merged(attempt(batch, entries.subList(0, half)), attempt(batch, entries.subList(half, entries.size())));
    }

    private EventLogWriter.Outcome attempt(Batch batch, List<EventsEntry> entries) {
        try {
            return writer.write(batch.shard(), entries);
        } catch (RuntimeException e) {
            if (!Refusals.refusesData(e)) {
                throw e;
            }
            return isolate(batch, entries, e);
        }
    }

    private static EventLogWriter.Outcome merged(EventLogWriter.Outcome first, EventLogWriter.Outcome second) {
        List<String> done = new ArrayList<>(first.done());
        done.addAll(second.done());
        List<String> waiting = new ArrayList<>(first.waiting());
        waiting.addAll(second.waiting());
        Set<UUID> ended = new LinkedHashSet<>(first.ended());
        ended.addAll(second.ended());
        Map<UUID, RunStatus> endings = new LinkedHashMap<>(first.endings());
        endings.putAll(second.endings());
        Map<String, QuarantinedSeqs> orphaned = new LinkedHashMap<>(first.orphaned());
        orphaned.putAll(second.orphaned());
        return new EventLogWriter.Outcome(done, waiting, ended, endings, orphaned);
    }

    /** The outcome with the entries of runs whose start is in quarantine set aside too, and done. */
    private EventLogWriter.Outcome orphansSetAside(Batch batch, List<EventsEntry> entries,
                                                   EventLogWriter.Outcome outcome) {
        List<String> done = new ArrayList<>(outcome.done());
        entries.stream().filter(entry -> outcome.orphaned().containsKey(entry.id())).forEach(entry -> {
            poisoned.orphaned(batch.shard(), batch.stream(), entry, batch.fields(entry.id()),
                    outcome.orphaned().get(entry.id()));
            done.add(entry.id());
        });
        return new EventLogWriter.Outcome(done, outcome.waiting(), outcome.ended(), outcome.endings());
    }

    /** The batch: where it came from and its entries as read. */
    private record Batch(int shard, String stream, List<StreamMessage<String, String>> messages) {

        Map<String, String> fields(String entryId) {
            return messages.stream().filter(message -> message.getId().equals(entryId)).findFirst()
                    .map(StreamMessage::getBody).orElse(Map.of());
        }
    }
}
