package io.tokenflow.supervisor;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import io.tokenflow.engine.replay.RunEnding;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunResumed;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.quarantine.Quarantine;
import io.tokenflow.quarantine.QuarantinedSeqs;
import tools.jackson.databind.JsonNode;

/**
 * Writes one batch of events-stream entries to PostgreSQL in one transaction: the rows of started runs, the event
 * log, the node executions and the runs' status. Writing the same entries again changes nothing.
 */
@Component
class EventLogWriter {

    private static final Log log = LogFactory.getLog(EventLogWriter.class);

    /**
     * Plans every statement of the transaction for its actual arrays and the tables' current sizes. The statements are
     * prepared once per connection, and a plan PostgreSQL caches for them would be made when the tables were small
     * and the arrays' length unknown (assumed 10): a hash join over a sequential scan of all {@code runs} (or an
     * {@code = any} filter over every row) that a batch then paid for on every write as the tables grew. The rows a
     * batch touches by key were written moments ago and are in memory: an index lookup costs about what a page of a
     * sequential scan does, not the default four times as much (which made large batches scan whole tables).
     */
    private static final String PLANNING = "set local plan_cache_mode = force_custom_plan; "
            + "set local random_page_cost = 1.1";

    private final TransactionTemplate transactions;
    private final JdbcTemplate jdbc;
    private final RunRows runs;
    private final EventLogRows eventLog;
    private final NodeExecutionRows nodeExecutions;
    private final ApprovalRows approvals;
    private final DlqRows deadLetters;
    private final Quarantine quarantine;

    EventLogWriter(PlatformTransactionManager transactions, JdbcTemplate jdbc, RunRows runs, EventLogRows eventLog,
                   NodeExecutionRows nodeExecutions, ApprovalRows approvals, DlqRows deadLetters,
                   Quarantine quarantine) {
        this.approvals = approvals;
        this.quarantine = quarantine;
        this.deadLetters = deadLetters;
        this.transactions = new TransactionTemplate(transactions);
        this.jdbc = jdbc;
        this.runs = runs;
        this.eventLog = eventLog;
        this.nodeExecutions = nodeExecutions;
    }

    /** Writes the entries; throws when PostgreSQL refuses, in which case nothing of the batch is written. */
    Outcome write(int shard, List<EventsEntry> entries) {
        return transactions.execute(status -> writeInTransaction(shard, entries));
    }

    private Outcome writeInTransaction(int shard, List<EventsEntry> entries) {
        jdbc.execute(PLANNING);
        // a run started and ended within the batch gets its row once, ended; the others are inserted as running
        Map<UUID, RunStarted> started = started(entries);
        Set<UUID> insertedEnded = runs.insertEnded(shard, WholeRun.of(entries, started.keySet()));
        started.keySet().removeAll(insertedEnded);
        runs.insertStarted(shard, started);
        RunRows.Locked locked = runs.lockLogged(runIds(entries));
        BatchPlan plan = plan(entries, locked.lastSeq());
        plan.problems().forEach(log::error);
        eventLog.append(plan.applied());
        Map<NodeExecutionRows.RunNode, NodeStatus> stored = nodeExecutions.storedStatuses(
                NodeExecutionProjection.possiblyStored(plan.applied()));
        Set<NodeExecutionRows.RunNode> reopened = new HashSet<>();
        nodeExecutions.write(NodeExecutionProjection.fold(plan.applied(), stored, reopened), stored.keySet(), reopened);
        approvals.project(plan.applied());
        deadLetters.project(plan.applied());
        runs.recordRevisions(plan.applied());
        runs.resumeAll(resumptions(plan.applied()));
        Map<UUID, RunEnding> endings = endings(plan.applied());
        Map<UUID, Map<String, JsonNode>> outputs = RunRows.terminalOutputs(plan.applied());
        // a run ending in this batch gets its activity and outputs with its ending: one row version, not three
        runs.recordActivity(plan.applied(), endings.keySet(), locked.lastActivity());
        runs.addOutputs(outputs, endings.keySet());
        Map<UUID, RunStatus> endedAs = new LinkedHashMap<>();
        endings.forEach((run, ending) -> endedAs.put(run, ending.endsAs()));
        endings.keySet().removeAll(insertedEnded);
        runs.endAll(endings, outputs);
        return new Outcome(plan.done(), plan.waiting(), plan.ended(), endedAs, plan.orphaned());
    }

    /**
     * The batch's plan; when entries wait for earlier events, those may be in quarantine (asked only then: a batch
     * with nothing waiting costs no query), and the plan is made again passing over them.
     */
    private BatchPlan plan(List<EventsEntry> entries, Map<UUID, Long> logged) {
        BatchPlan plan = BatchPlan.of(entries, logged);
        if (plan.waiting().isEmpty()) {
            return plan;
        }
        Set<String> waiting = new HashSet<>(plan.waiting());
        Set<UUID> runs = new LinkedHashSet<>();
        entries.stream().filter(entry -> waiting.contains(entry.id())).forEach(entry -> runs.add(entry.run()));
        Map<UUID, NavigableMap<Long, QuarantinedSeqs>> skipped = quarantine.skippedSeqs(runs);
        return skipped.isEmpty() ? plan : BatchPlan.of(entries, logged, skipped);
    }

    /**
     * The runs that end in this batch (and are not resumed after it in the batch), with their ending; unfinished nodes
     * of failed or cancelled runs cancelled.
     */
    private Map<UUID, RunEnding> endings(Map<UUID, List<RunEvent>> applied) {
        Map<UUID, RunEnding> endings = new LinkedHashMap<>();
        applied.forEach((run, events) -> events.forEach(event -> {
            if (event instanceof RunEnding ending) {
                endings.put(run, ending);
            } else if (event instanceof RunResumed) {
                endings.remove(run);
            }
        }));
        endings.forEach((run, ending) -> {
            if (ending.endsAs() != RunStatus.COMPLETED) {
                nodeExecutions.cancelUnfinished(run, ending.at());
            }
        });
        return endings;
    }

    /**
     * The runs resumed in this batch, with their last {@code run.resumed}; they run again before the batch's endings
     * apply, so a resumed run that ends within the same batch ends from running.
     */
    private static Map<UUID, RunResumed> resumptions(Map<UUID, List<RunEvent>> applied) {
        Map<UUID, RunResumed> resumed = new LinkedHashMap<>();
        applied.forEach((run, events) -> events.stream().filter(RunResumed.class::isInstance)
                .forEach(event -> resumed.put(run, (RunResumed) event)));
        return resumed;
    }

    private static Map<UUID, RunStarted> started(List<EventsEntry> entries) {
        Map<UUID, RunStarted> started = new LinkedHashMap<>();
        entries.forEach(entry -> entry.events().stream().filter(RunStarted.class::isInstance)
                .forEach(event -> started.putIfAbsent(entry.run(), (RunStarted) event)));
        return started;
    }

    private static Set<UUID> runIds(List<EventsEntry> entries) {
        Set<UUID> runs = new LinkedHashSet<>();
        entries.forEach(entry -> runs.add(entry.run()));
        return runs;
    }

    /**
     * @param done    entries now fully in the event log: to acknowledge
     * @param waiting entries waiting for earlier events of their run: to retry
     * @param ended   runs whose ending is in the event log: their Redis state may go
     * @param endings runs this batch ended, with how they ended
     * @param orphaned entries that can never be logged, their run's {@code run.started} being in quarantine: to set
     *                 aside too (by entry id, the quarantined start)
     */
    record Outcome(List<String> done, List<String> waiting, Set<UUID> ended, Map<UUID, RunStatus> endings,
                   Map<String, QuarantinedSeqs> orphaned) {

        Outcome(List<String> done, List<String> waiting, Set<UUID> ended, Map<UUID, RunStatus> endings) {
            this(done, waiting, ended, endings, Map.of());
        }
    }
}
