package io.tokenflow.engine.replay;

import io.tokenflow.engine.runs.RunStatus;

/** The counter reached 0 with nothing pending: the run is done. */
public record RunCompleted(EventHeader header) implements RunEnding {

    static RunCompleted read(EventHeader header, EventJson data) {
        return new RunCompleted(header);
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_COMPLETED;
    }

    @Override
    public RunStatus endsAs() {
        return RunStatus.COMPLETED;
    }

    @Override
    public String error() {
        return null;
    }

    @Override
    public int dropped() {
        return 0;
    }
}
