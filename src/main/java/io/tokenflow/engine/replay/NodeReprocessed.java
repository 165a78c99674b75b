package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;

/**
 * A parked token's dead-letter entry was reprocessed ({@code by} whom): the token goes back to the node's workers as
 * attempt 1 of a new series, with its input as it was or as edited ({@code inputEdited}).
 */
public record NodeReprocessed(EventHeader header, int iteration, String dlqId, String by, boolean inputEdited)
        implements NodeExecutionEvent {

    static NodeReprocessed read(EventHeader header, EventJson data) {
        return new NodeReprocessed(header.requireNodeAndToken("node.reprocessed"), data.iteration(),
                data.requiredText("dlq_id"), data.text("by"), data.flag("input_edited"));
    }

    public static String data(int iteration, String dlqId, String by, boolean inputEdited) {
        return new EventDataText().number("iteration", iteration).text("dlq_id", dlqId).text("by", by)
                .flag("input_edited", inputEdited).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_REPROCESSED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.withError(null);
    }
}
