package io.tokenflow.engine.replay;

import io.tokenflow.engine.runs.RunStatus;

/** The counter reached 0 with nothing pending: the run is done. */
public record RunCompleted(EventHeader header) implements RunEvent {

    static RunCompleted read(EventHeader header, EventJson data) {
        return new RunCompleted(header);
    }

    @Override
    public RunEventType type() {
        return RunEventType.RUN_COMPLETED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.end(RunStatus.COMPLETED, this, null);
    }
}
