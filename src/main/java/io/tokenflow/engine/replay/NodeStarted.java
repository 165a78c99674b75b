package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/** A worker began the node's work: the execution is {@code RUNNING}. */
public record NodeStarted(EventHeader header, int iteration, String worker) implements NodeExecutionEvent {

    static NodeStarted read(EventHeader header, EventJson data) {
        return new NodeStarted(header.requireNodeAndToken("node.started"), data.iteration(), data.text("worker"));
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_STARTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.RUNNING, seq(),
                execution -> execution.withStartedAt(at()).withWorker(worker).withToken(token()), rejected);
    }
}
