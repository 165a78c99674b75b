package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import tools.jackson.databind.JsonNode;

/**
 * The node failed with no retry left and its {@code on_failure} is {@code dlq}: its token parks in the dead-letter
 * queue (entry {@code dlqId}). The token stays in flight (the counter does not move), so the run waits, off the
 * inactivity timeout, until the entry is reprocessed ({@link NodeReprocessed}) or discarded ({@link NodeDiscarded}).
 *
 * @param attempts how many attempts were made
 * @param input    the task's input (JSON), or {@code null} when it travelled by reference ({@code inputRef})
 */
public record NodeParked(EventHeader header, int iteration, String dlqId, String nodeType, int attempts,
                         JsonNode error, String worker, JsonNode input, String inputRef) implements NodeExecutionEvent {

    static NodeParked read(EventHeader header, EventJson data) {
        return new NodeParked(header.requireNodeAndToken("node.parked"), data.iteration(),
                data.requiredText("dlq_id"), data.text("node_type"), Math.toIntExact(data.requiredNumber("attempts")),
                data.json("error"), data.text("worker"), data.json("input"), data.text("input_ref"));
    }

    /** The data of a {@code node.parked} event; {@code error} and {@code input} are JSON text (input may be null). */
    public static String data(int iteration, String dlqId, String nodeType, int attempts, String error, String worker,
                              String input, String inputRef) {
        return new EventDataText().number("iteration", iteration).text("dlq_id", dlqId).text("node_type", nodeType)
                .number("attempts", attempts).raw("error", error).text("worker", worker).raw("input", input)
                .text("input_ref", inputRef).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_PARKED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        NodeExecution dispatched = current.move(NodeStatus.DISPATCHED, seq(), execution -> execution, rejected);
        return dispatched.withError(error).withWorker(worker).withToken(token());
    }
}
