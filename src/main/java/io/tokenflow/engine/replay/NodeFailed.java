package io.tokenflow.engine.replay;

import java.util.List;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

import tools.jackson.databind.JsonNode;

/** The node's work failed and its token was consumed (−1); {@code error} has {@code message}, {@code kind}, {@code code}. */
public record NodeFailed(EventHeader header, int iteration, JsonNode error, String worker)
        implements NodeExecutionEvent {

    static NodeFailed read(EventHeader header, EventJson data) {
        return new NodeFailed(header.requireNodeAndToken("node.failed"), data.iteration(), data.json("error"),
                data.text("worker"));
    }

    /**
     * The data of a {@code node.failed} event; {@code error} is the JSON object text {message, kind, code}.
     *
     * @param caughtBy where {@code on_failure} sent the error ({@code next_nodes}; the run goes on), or {@code null}
     */
    public static String data(int iteration, String worker, Long startedAt, String error, List<String> caughtBy) {
        EventDataText data = new EventDataText().number("iteration", iteration).text("worker", worker)
                .number("started_at", startedAt).raw("error", error);
        return (caughtBy == null ? data : data.texts("next_nodes", caughtBy)).end();
    }

    /** The error of a node whose routing could not be decided (a condition failed). */
    public static String routingError(String message) {
        return new EventDataText().text("message", message).text("kind", "routing").end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_FAILED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.consume(token());
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.FAILED, seq(),
                execution -> execution.withError(error).withWorker(worker).withToken(token()).withEndedAt(at()),
                rejected);
    }
}
