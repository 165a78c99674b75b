package io.tokenflow.workers;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/** What a {@link TaskHandler} made of a task: an output, or a failure that says whether retrying may help. */
public sealed interface TaskResult permits TaskResult.Completed, TaskResult.Failed {

    static Completed completed(JsonNode output) {
        return new Completed(output);
    }

    /** An output with the routing decision of an agent-driven branch (see docs/worker-protocol.md §3). */
    static Completed routed(JsonNode output, JsonNode decision) {
        return new Completed(output, Objects.requireNonNull(decision, "decision"));
    }

    static Failed permanent(String code, String message) {
        return new Failed(message, FailureKind.PERMANENT, code);
    }

    static Failed transientFailure(String code, String message) {
        return new Failed(message, FailureKind.TRANSIENT, code);
    }

    /**
     * @param output   the node's output, any JSON value
     * @param decision {@code {"next_nodes": [...], "reasoning": "..."}} when the worker chose the next nodes, else null
     */
    record Completed(JsonNode output, JsonNode decision) implements TaskResult {
        public Completed {
            Objects.requireNonNull(output, "output");
        }

        public Completed(JsonNode output) {
            this(output, null);
        }
    }

    /** @param code a short machine-readable reason, e.g. {@code http_404} */
    record Failed(String message, FailureKind kind, String code) implements TaskResult {
        public Failed {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(code, "code");
        }
    }
}
