package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;

/**
 * A parked token's dead-letter entry was reprocessed ({@code by} whom): the token goes back to the node's workers as
 * attempt 1 of a new series, with its input as it was or as edited ({@code inputEdited}; the edited {@code input}
 * itself, so that a recovery from the log sends the task again as it was sent; null in events written before it was
 * logged).
 */
public record NodeReprocessed(EventHeader header, int iteration, String dlqId, String by, boolean inputEdited,
                              JsonNode input) implements NodeExecutionEvent {

    static NodeReprocessed read(EventHeader header, EventJson data) {
        JsonNode input = data.json("input");
        return new NodeReprocessed(header.requireNodeAndToken("node.reprocessed"), data.iteration(),
                data.requiredText("dlq_id"), data.text("by"), data.flag("input_edited"),
                input == null || input.isNull() ? null : input);
    }

    /** @param input the edited input (JSON text), or {@code null} when the task went with the input it had */
    public static String data(int iteration, String dlqId, String by, String input) {
        EventDataText text = new EventDataText().number("iteration", iteration).text("dlq_id", dlqId).text("by", by)
                .flag("input_edited", input != null);
        return (input == null ? text : text.raw("input", input)).end();
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
