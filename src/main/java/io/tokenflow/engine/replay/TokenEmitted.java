package io.tokenflow.engine.replay;

import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * A token was emitted towards {@code node} (+1). A parking token ({@code join}) waits at a join node, whose
 * execution stays {@code PENDING}; any other token makes its node's execution {@code READY} then {@code DISPATCHED}.
 *
 * @param from   the node that emitted it, or {@code null} (entry tokens, join tokens)
 * @param parent the token it derives from, or {@code null}
 */
public record TokenEmitted(EventHeader header, String from, String parent, int iteration, boolean join)
        implements NodeExecutionEvent {

    static TokenEmitted read(EventHeader header, EventJson data) {
        return new TokenEmitted(header.requireNodeAndToken("token.emitted"), data.text("from"), data.text("parent"),
                data.iteration(), data.flag("join"));
    }

    /** The data of a {@code token.emitted} event (written into Lua steps; read by {@link #read}). */
    public static String data(String from, String parent, int iteration, boolean join) {
        return new EventDataText().text("from", from).text("parent", parent).number("iteration", iteration)
                .flag("join", join).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.TOKEN_EMITTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.emit(this);
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        if (join) {
            return current.move(NodeStatus.PENDING, seq(), execution -> execution, rejected);
        }
        return current
                .move(NodeStatus.READY, seq(), execution -> execution.withReadyAt(at()).withToken(token()), rejected)
                .move(NodeStatus.DISPATCHED, seq(), execution -> execution, rejected);
    }
}
