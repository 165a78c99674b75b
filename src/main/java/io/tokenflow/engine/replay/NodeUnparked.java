package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;

/**
 * A parked task's completion arrived after all (a slow worker's): it completed the node (the {@code node.completed}
 * just before this event), and the task left the dead-letter queue. No data.
 */
public record NodeUnparked(EventHeader header, int iteration) implements NodeExecutionEvent {

    static NodeUnparked read(EventHeader header, EventJson data) {
        return new NodeUnparked(header.requireNodeAndToken("node.unparked"), data.iteration());
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_UNPARKED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current;
    }
}
