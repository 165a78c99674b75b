package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

import tools.jackson.databind.JsonNode;

/**
 * The node's work succeeded and its token was consumed (−1).
 *
 * @param output    the output, or {@code {"$ref": "cas://sha256:…"}} when large
 * @param startedAt when the worker says it began, or {@code null}; used when no {@link NodeStarted} was reported
 */
public record NodeCompleted(EventHeader header, int iteration, JsonNode output, String worker, Instant startedAt,
                            boolean terminal) implements NodeExecutionEvent {

    static NodeCompleted read(EventHeader header, EventJson data) {
        return new NodeCompleted(header.requireNodeAndToken("node.completed"), data.iteration(), data.json("output"),
                data.text("worker"), data.instant("started_at"), data.has("terminal") && data.flag("terminal"));
    }

    /**
     * The data of a {@code node.completed} event.
     *
     * @param route  what dynamic routing decided (JSON object text), or {@code null}
     * @param output the output as the run's context keeps it (JSON text, or a {@code $ref} object)
     */
    public static String data(int iteration, String worker, Long startedAt, boolean terminal, String route,
                              String output) {
        EventDataText data = new EventDataText().number("iteration", iteration).text("worker", worker)
                .number("started_at", startedAt).flag("terminal", terminal);
        return (route == null ? data : data.raw("route", route)).raw("output", output).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_COMPLETED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.consume(token());
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.COMPLETED, seq(), execution -> execution.withOutput(output).withWorker(worker)
                .withToken(token()).withStartedAt(startedAt).withEndedAt(at()), rejected);
    }

    /** The CAS reference when the output travels by reference, else {@code null}. */
    public String outputReference() {
        return NodeExecution.referenceIn(output);
    }
}
