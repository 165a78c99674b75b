package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import tools.jackson.databind.JsonNode;

/**
 * An attempt of the node's task failed transiently and its retry policy tries it again: the token stays in flight
 * (the counter does not move) and goes back to the node's workers at {@code dueAt}, with attempt
 * {@code nextAttempt}. The execution is {@code DISPATCHED} again, its error the failed attempt's.
 *
 * @param attempt     the attempt that failed (1 for the first)
 * @param maxAttempts the policy's attempts at most
 * @param delayMs     the wait before the next attempt
 */
public record NodeRetrying(EventHeader header, int iteration, int attempt, int nextAttempt, int maxAttempts,
                           long delayMs, Instant dueAt, JsonNode error, String worker) implements NodeExecutionEvent {

    static NodeRetrying read(EventHeader header, EventJson data) {
        return new NodeRetrying(header.requireNodeAndToken("node.retrying"), data.iteration(),
                Math.toIntExact(data.requiredNumber("attempt")), Math.toIntExact(data.requiredNumber("next_attempt")),
                Math.toIntExact(data.requiredNumber("max_attempts")), data.requiredNumber("delay_ms"),
                Instant.ofEpochMilli(data.requiredNumber("due_at")), data.json("error"), data.text("worker"));
    }

    /** The data of a {@code node.retrying} event; {@code error} is the failed attempt's error object (JSON text). */
    public static String data(int iteration, int attempt, int maxAttempts, long delayMs, long dueAt, String worker,
                              String error) {
        return new EventDataText().number("iteration", iteration).number("attempt", attempt)
                .number("next_attempt", attempt + 1).number("max_attempts", maxAttempts).number("delay_ms", delayMs)
                .number("due_at", dueAt).text("worker", worker).raw("error", error).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.NODE_RETRYING;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.DISPATCHED, seq(),
                execution -> execution.withError(error).withWorker(worker).withToken(token()), rejected);
    }
}
