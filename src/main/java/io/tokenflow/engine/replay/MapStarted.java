package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * A map node's token arrived and its list was taken: {@code items} elements, each to run as a task of its own, at
 * most {@code concurrency} at a time ({@link MapItemCompleted}, {@link MapItemFailed}, {@link MapItemsDone}). The
 * node's token stays in flight; the execution is {@code RUNNING} until the node completes with the list of outputs.
 */
public record MapStarted(EventHeader header, int iteration, int items, int concurrency)
        implements NodeExecutionEvent {

    static MapStarted read(EventHeader header, EventJson data) {
        return new MapStarted(header.requireNodeAndToken("map.started"), data.iteration(),
                Math.toIntExact(data.requiredNumber("items")), Math.toIntExact(data.requiredNumber("concurrency")));
    }

    public static String data(int iteration, int items, int concurrency, String itemsRef) {
        return new EventDataText().number("iteration", iteration).number("items", items)
                .number("concurrency", concurrency).text("items_ref", itemsRef).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.MAP_STARTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.RUNNING, seq(), execution -> execution.withStartedAt(at()).withToken(token()),
                rejected);
    }
}
