package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/** A token from dependency {@code from} arrived at a join ({@code arrived} of {@code expected}); the join waits. */
public record JoinArrived(EventHeader header, String from, int iteration, int arrived, int expected)
        implements NodeExecutionEvent {

    static JoinArrived read(EventHeader header, EventJson data) {
        return new JoinArrived(header.requireNodeAndToken("join.arrived"), data.text("from"), data.iteration(),
                Math.toIntExact(data.number("arrived", 0)), Math.toIntExact(data.number("expected", 0)));
    }

    /** The data of a {@code join.arrived} event (written by Lua in routing steps; by Java when a run is resumed). */
    public static String data(String from, int iteration, int arrived, int expected) {
        return new EventDataText().text("from", from).number("iteration", iteration).number("arrived", arrived)
                .number("expected", expected).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.JOIN_ARRIVED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.arrive(this);
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.PENDING, seq(), execution -> execution, rejected);
    }
}
