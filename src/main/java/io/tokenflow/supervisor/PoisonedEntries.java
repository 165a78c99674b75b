package io.tokenflow.supervisor;

import java.sql.SQLException;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.logging.RunLogContext;
import io.tokenflow.quarantine.NewQuarantinedEntry;
import io.tokenflow.quarantine.Quarantine;
import io.tokenflow.quarantine.QuarantinedSeqs;

/**
 * Sets aside an events-stream entry that cannot be processed: into the quarantine with its raw text and the reason,
 * then fails its run with that reason. The run is failed the way every run is ({@link RunTerminator}: tokens dropped,
 * {@code run.failed} appended), and its later events reach the event log past the quarantined seqs; a run whose
 * ending was in the entry, or that Redis no longer runs, has its row failed directly. Callers acknowledge the entry
 * afterwards: setting it aside again (after a failure in between) keeps the first quarantine row.
 */
@Component
class PoisonedEntries {

    private static final Log log = LogFactory.getLog(PoisonedEntries.class);
    private static final int MAX_MESSAGE = 1_000;

    private final Quarantine quarantine;
    private final ObjectProvider<RunTerminator> terminator;
    private final RunRows runs;
    private final NodeExecutionRows nodeExecutions;
    private final Clock clock;

    PoisonedEntries(Quarantine quarantine, ObjectProvider<RunTerminator> terminator, RunRows runs,
                    NodeExecutionRows nodeExecutions, Clock clock) {
        this.quarantine = quarantine;
        this.terminator = terminator;
        this.runs = runs;
        this.nodeExecutions = nodeExecutions;
        this.clock = clock;
    }

    /**
     * An entry PostgreSQL refused when written by itself.
     *
     * @return true when the entry held its run's ending (or its compensation's): the run's Redis state may go
     */
    boolean refused(int shard, String stream, EventsEntry entry, Map<String, String> fields, RuntimeException failure) {
        String message = message(failure);
        long id = quarantine.add(new NewQuarantinedEntry(shard, stream, entry.id(), entry.run(), first(entry),
                last(entry), fields, "Expected PostgreSQL to store it, but it refused it: " + message));
        boolean heldEnding = entry.events().stream().anyMatch(event -> event.type().endsRun());
        try (RunLogContext context = RunLogContext.of(entry.run())) {
            log.error("Event-log entry " + entry.id() + " of run " + entry.run() + " is in quarantine " + id
                    + ": PostgreSQL refused it (" + message + "); its run is failed");
        }
        fail(entry.run(), "Expected event-log entry " + entry.id() + " of run " + entry.run() + " to be stored, but "
                + "PostgreSQL refused it: " + message + "; it is in quarantine " + id, heldEnding);
        return entry.events().stream().anyMatch(event -> event.type().releasesRunState());
    }

    /** An entry that cannot be read; its run, when it names one and holds some of its events, is failed. */
    void unreadable(int shard, String stream, EventsEntries.Unreadable entry) {
        long id = quarantine.add(new NewQuarantinedEntry(shard, stream, entry.id(), entry.run(), entry.firstSeq(),
                entry.lastSeq(), entry.fields(), entry.reason()));
        try (RunLogContext context = RunLogContext.of(entry.run())) {
            log.error(entry.reason() + "; it is in quarantine " + id);
        }
        if (entry.run() != null && entry.firstSeq() != null) {
            fail(entry.run(), entry.reason() + "; it is in quarantine " + id, false);
        }
    }

    /** An entry of a run that has no row, its {@code run.started} being in quarantine: it can never be logged. */
    void orphaned(int shard, String stream, EventsEntry entry, Map<String, String> fields, QuarantinedSeqs start) {
        String reason = "Expected run " + entry.run() + " to have a row for its events, but its run.started (stream "
                + "entry " + start.entryId() + ") is in quarantine " + start.quarantineId();
        long id = quarantine.add(new NewQuarantinedEntry(shard, stream, entry.id(), entry.run(), first(entry),
                last(entry), fields, reason));
        try (RunLogContext context = RunLogContext.of(entry.run())) {
            log.warn("Event-log entry " + entry.id() + " is in quarantine " + id + ": " + reason);
        }
    }

    private void fail(UUID run, String reason, boolean endingLost) {
        if (!endingLost) {
            RunTerminator terminator = this.terminator.getIfAvailable();
            if (terminator != null && terminator.fail(run, reason)) {
                return;
            }
        }
        if (runs.failUnlogged(run, reason, clock.instant())) {
            nodeExecutions.cancelUnfinished(run, clock.instant());
        }
    }

    private static Long first(EventsEntry entry) {
        return entry.events().stream().map(RunEvent::seq).min(Long::compare).orElse(null);
    }

    private static Long last(EventsEntry entry) {
        return entry.events().stream().map(RunEvent::seq).max(Long::compare).orElse(null);
    }

    /** PostgreSQL's own message when it gave one (the most specific cause), else the failure's. */
    static String message(Throwable failure) {
        String message = String.valueOf(failure.getMessage());
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException || cause.getCause() == null) {
                message = String.valueOf(cause.getMessage());
            }
        }
        message = message.strip().replaceAll("\\s*\\n\\s*", " ");
        return message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) + "…" : message;
    }
}
