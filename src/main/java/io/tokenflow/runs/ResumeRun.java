package io.tokenflow.runs;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.RunResumer;
import io.tokenflow.coordinator.StepOutcome;
import io.tokenflow.engine.replay.ResumePoint;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * Resumes a failed run from its failed node(s) ({@code POST /api/v1/runs/{id}/retry}, the run page's Retry button):
 * the same run id, its events appended. The point it resumes from is worked out from {@code event_log} alone
 * ({@link ResumePoint}), so a run whose Redis state has long expired resumes as well as one that failed a moment ago.
 */
@Service
public class ResumeRun {

    private final RunQueries runs;
    private final RunHistory history;
    private final RunResumer resumer;

    ResumeRun(RunQueries runs, RunHistory history, RunResumer resumer) {
        this.runs = runs;
        this.history = history;
        this.resumer = resumer;
    }

    /**
     * What was done again: the work re-emitted (tasks and approvals asked for again) and the join arrivals waiting
     * again.
     */
    public record Resumed(UUID id, String status, long resumedFromSeq, List<String> nodes, int joinArrivals) {
    }

    /**
     * @throws NotFoundException when there is no such run
     * @throws ConflictException when the run is not failed (or its failure is not in the event log yet)
     */
    public Resumed resume(UUID run, String by) {
        if (!runs.exists(run)) {
            throw new NotFoundException("Expected a run with id " + run + ", but there is none");
        }
        List<RunEvent> events = history.logged(run, Long.MAX_VALUE);
        ResumePoint point = ResumePoint.of(run.toString(), events).orElseThrow(() -> new ConflictException(
                "Expected a failed run to retry, but run " + run + " is " + describe(events)));
        if (point.redo().isEmpty() && point.arrivals().isEmpty()) {
            throw new ConflictException("Expected work to do again in failed run " + run + ", but its failure left "
                    + "none: it failed after its last node completed (" + point.state().error() + ")");
        }
        StepOutcome outcome = resumer.resume(run, point, by);
        if (outcome == StepOutcome.NOT_RUNNING) {
            throw new ConflictException("Expected a failed run to retry, but run " + run + " is running again (it was "
                    + "resumed already)");
        }
        if (outcome != StepOutcome.APPLIED) {
            throw new ConflictException("Expected the event log of run " + run + " to hold all its events, but Redis "
                    + "holds later ones not written yet; try again in a moment");
        }
        return new Resumed(run, "RUNNING", point.failedSeq(),
                point.redo().stream().map(ResumePoint.Redo::node).toList(), point.arrivals().size());
    }

    private static String describe(List<RunEvent> events) {
        if (events.isEmpty()) {
            return "not started yet";
        }
        RunEvent last = events.get(events.size() - 1);
        return switch (last.type()) {
            case RUN_COMPLETED -> "completed";
            case RUN_CANCELLED -> "cancelled";
            case RUN_FAILED -> "failed, but its events do not replay to a failed run";
            default -> "not ended (last event " + last.type().wireName() + ", seq " + last.seq() + ")";
        };
    }
}
