package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * The engine holds the node's token: a wait node's timer runs until {@code until}, or a signal node waits for the
 * signal {@code signal} with correlation key {@code correlationKey} (until {@code until}, its timeout, when it has one). The
 * token stays in flight; the execution is {@code RUNNING} until its completion (or failure) is routed.
 *
 * @param kind  {@code timer} or {@code signal}
 * @param correlationKey the signal's correlation key (a signal), else {@code null}
 * @param until when the timer fires or the signal wait times out, or {@code null} (a signal without a timeout)
 */
public record NodeWaiting(EventHeader header, int iteration, String kind, Instant until, String signal, String correlationKey)
        implements NodeExecutionEvent {

    public static final String TIMER = "timer";
    public static final String SIGNAL = "signal";

    static NodeWaiting read(EventHeader header, EventJson data) {
        return new NodeWaiting(header.requireNodeAndToken("node.waiting"), data.iteration(), data.requiredText("kind"),
                data.instant("until"), data.text("signal"), data.text("key"));
    }

    /** The data of a {@code node.waiting} event; {@code until} in epoch ms, or null. */
    public static String data(int iteration, String kind, Long until, String signal, String key) {
        return new EventDataText().number("iteration", iteration).text("kind", kind).number("until", until)
                .text("signal", signal).text("key", key).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_WAITING;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.RUNNING, seq(),
                execution -> execution.withStartedAt(at()).withWorker(kind).withToken(token()), rejected);
    }
}
