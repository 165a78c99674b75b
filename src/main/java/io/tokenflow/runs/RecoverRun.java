package io.tokenflow.runs;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.RunRecovery;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;

/**
 * Rebuilds a running run whose Redis state was lost from its event log ({@code POST /api/v1/runs/{id}/recover},
 * admin): the supervisor does the same on its own (docs/recovery.md); this is for an operator who will not wait.
 */
@Service
public class RecoverRun {

    private final RunQueries runs;
    private final RunRecovery recovery;
    private final RedisKeys keys;

    RecoverRun(RunQueries runs, RunRecovery recovery, RedisKeys keys) {
        this.runs = runs;
        this.recovery = recovery;
        this.keys = keys;
    }

    /** What was rebuilt: the event it goes on from, why, the tasks sent again and what waits as it did. */
    public record Recovered(UUID id, String status, long recoveredFromSeq, String reason, List<String> resentTokens,
                            int joinArrivals, int approvals, int parked) {
    }

    /**
     * @throws NotFoundException when there is no such run
     * @throws ConflictException when the run is not running in its event log, or Redis holds its state
     */
    public Recovered recover(UUID run, String by) {
        if (!runs.exists(run)) {
            throw new NotFoundException("Expected a run with id " + run + ", but there is none");
        }
        RunRecovery.Outcome outcome = recovery.recover(run, keys.shardOf(run), by);
        if (outcome instanceof RunRecovery.Recovered done) {
            return new Recovered(run, "RUNNING", done.fromSeq(), done.reason(), done.resent(), done.joinArrivals(),
                    done.approvals(), done.parked());
        }
        throw new ConflictException(((RunRecovery.NotRecovered) outcome).reason());
    }
}
