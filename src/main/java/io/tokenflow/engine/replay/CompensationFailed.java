package io.tokenflow.engine.replay;

/**
 * A compensator failed (its {@code node.failed} comes just before): the compensation stops there, and the steps not
 * run yet stay to do; starting the compensation again runs the failed step and those after it.
 *
 * @param reason what failed
 */
public record CompensationFailed(EventHeader header, String reason) implements RunEvent {

    static CompensationFailed read(EventHeader header, EventJson data) {
        return new CompensationFailed(header, data.text("reason"));
    }

    public static String data(String reason) {
        return new EventDataText().text("reason", reason).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.COMPENSATION_FAILED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.compensation("failed");
    }
}
