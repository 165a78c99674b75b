package io.tokenflow.engine.replay;

import java.util.List;

/**
 * The ended run's compensators began to run, one at a time, in {@code steps} order (the reverse of the order the
 * nodes completed in): each step is a {@code token.emitted} to the compensating node {@code <node>~compensate}, then
 * its {@code node.completed} or {@code node.failed}. {@code compensation.completed} or {@code compensation.failed}
 * ends it; the run's status stays what its ending made it.
 *
 * @param by     who started it ({@code system} when the workflow's {@code compensation.on} did)
 * @param reason {@code failure}, {@code cancel} or {@code request}
 * @param steps  the compensated executions, as {@code node#iteration}
 */
public record CompensationStarted(EventHeader header, String by, String reason, List<String> steps)
        implements RunEvent {

    public CompensationStarted {
        steps = List.copyOf(steps);
    }

    static CompensationStarted read(EventHeader header, EventJson data) {
        return new CompensationStarted(header, data.text("by"), data.requiredText("reason"), data.texts("steps"));
    }

    public static String data(String by, String reason, List<String> steps) {
        return new EventDataText().text("by", by).text("reason", reason).texts("steps", steps).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.COMPENSATION_STARTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.compensation("running");
    }
}
