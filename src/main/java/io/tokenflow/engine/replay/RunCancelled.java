package io.tokenflow.engine.replay;

import io.tokenflow.engine.runs.RunStatus;

/**
 * Someone cancelled the run: its tokens were dropped, the counter is 0 and every unfinished node execution is
 * cancelled.
 *
 * @param dropped how many tokens were in flight and dropped
 */
public record RunCancelled(EventHeader header, String by, int dropped) implements RunEnding {

    static RunCancelled read(EventHeader header, EventJson data) {
        return new RunCancelled(header, data.text("by"), data.count("dropped"));
    }

    /** The data of a {@code run.cancelled} event; {@code end-run.lua} adds the tokens it dropped. */
    public static String data(String by) {
        return new EventDataText().text("by", by).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_CANCELLED;
    }

    @Override
    public RunStatus endsAs() {
        return RunStatus.CANCELLED;
    }

    @Override
    public String error() {
        return "Cancelled by " + (by == null ? "unknown" : by);
    }
}
