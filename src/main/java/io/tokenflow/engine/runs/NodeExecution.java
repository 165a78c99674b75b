package io.tokenflow.engine.runs;

import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import tools.jackson.databind.JsonNode;

/**
 * The state of one node execution. Fields an event never set are {@code null}. Every status change goes through
 * {@link #move}, which consults {@link NodeStatusTransitions}.
 */
public record NodeExecution(NodeExecutionKey key, NodeStatus status, String token, String worker, JsonNode output,
                            JsonNode error, Instant readyAt, Instant startedAt, Instant endedAt) {

    public NodeExecution {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(status, "status");
    }

    /** A new execution: every execution starts {@code PENDING}. */
    public static NodeExecution created(NodeExecutionKey key) {
        return existing(key, NodeStatus.PENDING);
    }

    /** An execution known only by its status (e.g. read back from storage), with no fields set. */
    public static NodeExecution existing(NodeExecutionKey key, NodeStatus status) {
        return new NodeExecution(key, status, null, null, null, null, null, null, null);
    }

    /**
     * Moves to {@code to} and applies {@code change}; staying in the same status is no move and changes nothing. An
     * illegal move is reported to {@code rejected} and leaves the execution as it was. A move out of a finished status
     * (a resumed run dispatching the execution again) starts it afresh: what its ended attempt set is cleared.
     */
    public NodeExecution move(NodeStatus to, long seq, UnaryOperator<NodeExecution> change,
                              Consumer<IllegalMove> rejected) {
        if (to == status) {
            return this;
        }
        if (!NodeStatusTransitions.allows(status, to)) {
            rejected.accept(new IllegalMove(key.toString(), status.name(), to.name(), seq));
            return this;
        }
        NodeExecution moved = status.isFinished() ? new NodeExecution(key, to, null, null, null, null, null, null, null)
                : withStatus(to);
        return change.apply(moved);
    }

    public NodeExecution withStatus(NodeStatus newStatus) {
        return new NodeExecution(key, newStatus, token, worker, output, error, readyAt, startedAt, endedAt);
    }

    public NodeExecution withToken(String newToken) {
        return new NodeExecution(key, status, newToken, worker, output, error, readyAt, startedAt, endedAt);
    }

    /** Keeps the known worker when the event names none. */
    public NodeExecution withWorker(String newWorker) {
        return new NodeExecution(key, status, token, newWorker == null ? worker : newWorker, output, error, readyAt,
                startedAt, endedAt);
    }

    public NodeExecution withOutput(JsonNode newOutput) {
        return new NodeExecution(key, status, token, worker, newOutput, error, readyAt, startedAt, endedAt);
    }

    public NodeExecution withError(JsonNode newError) {
        return new NodeExecution(key, status, token, worker, output, newError, readyAt, startedAt, endedAt);
    }

    public NodeExecution withReadyAt(Instant at) {
        return new NodeExecution(key, status, token, worker, output, error, at, startedAt, endedAt);
    }

    /** Keeps an earlier start: the first report of when work began wins. */
    public NodeExecution withStartedAt(Instant at) {
        return new NodeExecution(key, status, token, worker, output, error, readyAt, startedAt == null ? at : startedAt,
                endedAt);
    }

    public NodeExecution withEndedAt(Instant at) {
        return new NodeExecution(key, status, token, worker, output, error, readyAt, startedAt, at);
    }

    /** The CAS reference when the output travels by reference ({@code {"$ref": "cas://…"}}), else {@code null}. */
    public String outputReference() {
        return referenceIn(output);
    }

    /** The CAS reference a value stands for ({@code {"$ref": "cas://…"}}), else {@code null}. */
    public static String referenceIn(JsonNode value) {
        if (value == null || !value.isObject() || value.size() != 1 || !value.has("$ref")) {
            return null;
        }
        return value.get("$ref").isString() ? value.get("$ref").asString() : null;
    }
}
