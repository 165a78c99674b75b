package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * The engine holds the node's token: a wait node's timer runs until {@code until}, a signal node waits for the
 * signal {@code signal} with correlation key {@code correlationKey} (until {@code until}, its timeout, when it has
 * one), or a workflow node waits for its child run {@code childRun}. The token stays in flight; the execution is
 * {@code RUNNING} until its completion (or failure) is routed.
 *
 * @param kind           {@code timer}, {@code signal} or {@code child}
 * @param correlationKey the signal's correlation key (a signal), else {@code null}
 * @param until          when the timer fires or the signal wait times out, or {@code null} (a signal without a
 *                       timeout, a child run)
 * @param childRun       the child run a workflow node waits for, else {@code null}
 * @param workflow       the called workflow and its pinned version ({@code billing v3}) of a child run, else null
 */
public record NodeWaiting(EventHeader header, int iteration, String kind, Instant until, String signal,
                          String correlationKey, UUID childRun, String workflow) implements NodeExecutionEvent {

    public static final String TIMER = "timer";
    public static final String SIGNAL = "signal";
    public static final String CHILD = "child";

    static NodeWaiting read(EventHeader header, EventJson data) {
        String child = data.text("child_run_id");
        try {
            return new NodeWaiting(header.requireNodeAndToken("node.waiting"), data.iteration(),
                    data.requiredText("kind"), data.instant("until"), data.text("signal"), data.text("key"),
                    child == null ? null : UUID.fromString(child), data.text("workflow"));
        } catch (IllegalArgumentException e) {
            if (e instanceof MalformedRunEventException malformed) {
                throw malformed;
            }
            throw new MalformedRunEventException("Expected child_run_id in " + data.where() + " to be a UUID, but "
                    + "found " + child);
        }
    }

    /** The data of a {@code node.waiting} event of a timer or a signal wait; {@code until} in epoch ms, or null. */
    public static String data(int iteration, String kind, Long until, String signal, String key) {
        return new EventDataText().number("iteration", iteration).text("kind", kind).number("until", until)
                .text("signal", signal).text("key", key).end();
    }

    /** The data of a {@code node.waiting} event of a workflow node waiting for its child run. */
    public static String childData(int iteration, UUID childRun, String workflow) {
        return new EventDataText().number("iteration", iteration).text("kind", CHILD)
                .text("child_run_id", childRun.toString()).text("workflow", workflow).end();
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
