package io.tokenflow.engine.replay;

/** Every compensator of the run completed (data {@code {}}, written by the Lua step); its Redis state may go again. */
public record CompensationCompleted(EventHeader header) implements RunEvent {

    static CompensationCompleted read(EventHeader header, EventJson data) {
        return new CompensationCompleted(header);
    }

    @Override
    public RunEventType type() {
        return RunEventType.COMPENSATION_COMPLETED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.compensation("completed");
    }
}
