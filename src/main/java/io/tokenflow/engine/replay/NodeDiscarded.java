package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * A parked token's dead-letter entry was discarded ({@code by} whom): the node fails, and {@code run.failed} follows
 * in the same step.
 */
public record NodeDiscarded(EventHeader header, int iteration, String dlqId, String by) implements NodeExecutionEvent {

    static NodeDiscarded read(EventHeader header, EventJson data) {
        return new NodeDiscarded(header.requireNodeAndToken("node.discarded"), data.iteration(),
                data.requiredText("dlq_id"), data.text("by"));
    }

    public static String data(int iteration, String dlqId, String by) {
        return new EventDataText().number("iteration", iteration).text("dlq_id", dlqId).text("by", by).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_DISCARDED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.consume(token());
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.FAILED, seq(), execution -> execution.withEndedAt(at()), rejected);
    }
}
