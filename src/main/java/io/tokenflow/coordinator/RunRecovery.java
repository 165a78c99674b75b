package io.tokenflow.coordinator;

import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.designer.PinnedWorkflow;
import io.tokenflow.designer.PinnedWorkflows;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.RecoveryPoint;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunStarted;
import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.redis.RunMeta;

/**
 * Rebuilds a running run whose Redis state was lost from its event log ({@link RecoveryPoint}, {@code
 * recover-run.lua}): on demand ({@code POST /api/v1/runs/{id}/recover}) and when the supervisor finds a run running
 * in PostgreSQL that Redis no longer holds, or holds only up to an earlier event than the log (its append-only file
 * lost its tail). Redis is ahead of the log in normal operation, so a run Redis holds at or after the log's last
 * event is never touched. A run whose log holds no event yet (Redis lost it before its {@code run.started} was
 * logged) is started again, under its own id and entry tokens, from the row its start wrote ({@link StartedRows}).
 */
@Component
public class RunRecovery {

    private final RunEventLog eventLog;
    private final RunMeta meta;
    private final RunResumer resumer;
    private final StartedRows rows;
    private final PinnedWorkflows workflows;
    private final RunStarter starter;

    RunRecovery(RunEventLog eventLog, RunMeta meta, RunResumer resumer, StartedRows rows, PinnedWorkflows workflows,
                RunStarter starter) {
        this.eventLog = eventLog;
        this.rows = rows;
        this.workflows = workflows;
        this.starter = starter;
        this.meta = meta;
        this.resumer = resumer;
    }

    /** What happened to a run asked to recover. */
    public sealed interface Outcome {
    }

    /** Its state was rebuilt; {@code resent} tasks were sent again. */
    public record Recovered(long fromSeq, String reason, List<String> resent, int joinArrivals, int approvals,
                            int parked) implements Outcome {
    }

    /** Nothing was done, and why (the run is not running in its log, or Redis holds its state). */
    public record NotRecovered(String reason) implements Outcome {
    }

    /**
     * Recovers the run if its Redis state is lost.
     *
     * @param by who asks: a user name, or {@code system}
     */
    public Outcome recover(UUID run, int shard, String by) {
        // Redis first: a run's keys go only after its ending is logged, so a run Redis did not hold before the log
        // was read, and that the log then shows running, was lost (not ended and let go in between)
        OptionalLong held = meta.seq(run, shard);
        List<RunEvent> events = eventLog.events(run, Long.MAX_VALUE);
        if (events.isEmpty() && held.isEmpty()) {
            return restart(run);
        }
        RecoveryPoint point = RecoveryPoint.of(run.toString(), events).orElse(null);
        if (point == null) {
            return new NotRecovered("Expected a running run to recover, but the event log of run " + run + " "
                    + (events.isEmpty() ? "holds no event" : "replays to a run that is not running"));
        }
        if (held.isPresent() && held.getAsLong() >= point.lastSeq()) {
            return new NotRecovered(notLost(run, held.getAsLong(), point.lastSeq()));
        }
        String reason = held.isEmpty() ? "Redis held no state of the run"
                : "Redis held the run only up to event " + held.getAsLong() + " of the " + point.lastSeq() + " logged";
        if (resumer.recover(run, point, by, reason) != StepOutcome.APPLIED) {
            return new NotRecovered(notLost(run, meta.seq(run, shard).orElse(-1), point.lastSeq()));
        }
        return new Recovered(point.lastSeq(), reason, point.resend().stream().map(resend -> resend.task().token())
                .toList(), point.arrivals().size(), point.approvals().size(), point.parked().size());
    }

    /**
     * Starts a run again from the row its start wrote: its entry tokens are sent again under their own ids. Redis was
     * asked first: a run's keys go only after its {@code run.started} (and its ending) were logged, so a run Redis did
     * not hold and whose start the log still does not have was lost, not ended.
     */
    private Outcome restart(UUID run) {
        StartedRows.StartedRow row = rows.unlogged(run).orElse(null);
        if (row == null) {
            return new NotRecovered("Expected a running run to recover, but the event log of run " + run
                    + " holds no event and PostgreSQL no start of it");
        }
        PinnedWorkflow pinned = workflows.get(row.workflowId(), row.workflowVersion());
        List<String> entries = pinned.ir().entryNodes();
        try {
            starter.start(run, pinned, row.inputs(), RunStarted.data(row.workflowId(), row.workflowVersion(), 0,
                    row.tag(), row.inputs(), row.submittedBy(), row.idempotencyKey(), entries));
        } catch (IllegalStateException startedMeanwhile) {
            return new NotRecovered("Expected the Redis state of run " + run + " to be lost, but the run is there "
                    + "again (started from its row by another instance)");
        }
        List<IrNode> nodes = entries.stream().map(pinned.ir()::node).toList();
        return new Recovered(0, "Redis held no state of the run and the event log none of its events; it was started "
                + "again from the row its start wrote", nodes.stream().filter(node -> node.human() == null)
                .map(node -> TokenIds.entry(run.toString(), node.id())).toList(), 0,
                (int) nodes.stream().filter(node -> node.human() != null).count(), 0);
    }

    private static String notLost(UUID run, long held, long logged) {
        return "Expected the Redis state of run " + run + " to be lost, but Redis holds it up to event " + held
                + " (the event log up to " + logged + ")";
    }
}
