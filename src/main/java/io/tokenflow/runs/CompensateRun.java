package io.tokenflow.runs;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.Compensations;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * Starts the compensation of an ended run on request ({@code POST /api/v1/runs/{id}/compensate}, the run page's
 * Compensate button): its completed nodes' compensators run in reverse completion order (docs/failures.md).
 */
@Service
public class CompensateRun {

    private final RunQueries runs;
    private final Compensations compensations;

    CompensateRun(RunQueries runs, Compensations compensations) {
        this.runs = runs;
        this.compensations = compensations;
    }

    /** The compensation started: the executions it undoes, in the order it undoes them ({@code node#iteration}). */
    public record Compensating(UUID id, List<String> steps) {
    }

    /**
     * @throws NotFoundException when there is no such run
     * @throws ConflictException when the run has not ended, is being compensated, or has nothing to compensate
     */
    public Compensating compensate(UUID run, String by) {
        if (!runs.exists(run)) {
            throw new NotFoundException("Expected a run with id " + run + ", but there is none");
        }
        Compensations.Started started = compensations.start(run, by, "request");
        return switch (started.outcome()) {
            case STARTED -> new Compensating(run, started.steps());
            case NOT_ENDED -> throw new ConflictException("Expected an ended run to compensate, but run " + run
                    + " has not ended (or its ending is not in the event log yet); cancel it first");
            case RUNNING -> throw new ConflictException("Expected no compensation of run " + run + " to be running, "
                    + "but one is");
            case NOTHING_TO_DO -> throw new ConflictException("Expected a completed node with a compensator in run "
                    + run + ", but none is left to compensate (no node of its workflow has 'compensate', none of "
                    + "those completed, or each was compensated already)");
            case NOT_LOGGED_YET -> throw new ConflictException("Expected the event log of run " + run + " to hold all "
                    + "its events, but Redis holds later ones not written yet; try again in a moment");
        };
    }
}
