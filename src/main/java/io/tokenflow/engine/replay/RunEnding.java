package io.tokenflow.engine.replay;

import io.tokenflow.engine.runs.RunStatus;

/**
 * An event that ends a run. Failing or cancelling drops the tokens in flight, sets the counter to 0 and cancels
 * every unfinished node execution; completing happens only at counter 0.
 */
public sealed interface RunEnding extends RunEvent permits RunCompleted, RunFailed, RunCancelled {

    /** The status the run ends in. */
    RunStatus endsAs();

    /** Why the run did not complete (the failure reason, or who cancelled it); {@code null} when it completed. */
    String error();

    /** How many tokens were still in flight and dropped. */
    int dropped();

    @Override
    default void applyTo(RunFold fold) {
        fold.end(this);
    }
}
