package io.tokenflow.engine.replay;

import io.tokenflow.engine.runs.RunStatus;

/**
 * The run failed (a node failed, or it was idle too long): its tokens were dropped, the counter is 0 and every
 * unfinished node execution is cancelled.
 *
 * @param dropped how many tokens were in flight and dropped
 */
public record RunFailed(EventHeader header, String reason, int dropped) implements RunEnding {

    static RunFailed read(EventHeader header, EventJson data) {
        return new RunFailed(header, data.text("reason"), data.count("dropped"));
    }

    /** The data of a {@code run.failed} event ended by Java; {@code end-run.lua} adds the tokens it dropped. */
    public static String data(String reason) {
        return new EventDataText().text("reason", reason).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_FAILED;
    }

    @Override
    public RunStatus endsAs() {
        return RunStatus.FAILED;
    }

    @Override
    public String error() {
        return reason;
    }
}
