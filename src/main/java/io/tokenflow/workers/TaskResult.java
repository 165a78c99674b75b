package io.tokenflow.workers;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/** What a {@link TaskHandler} made of a task: an output, or a failure that says whether retrying may help. */
public sealed interface TaskResult permits TaskResult.Completed, TaskResult.Failed {

    static Completed completed(JsonNode output) {
        return new Completed(output);
    }

    static Failed permanent(String code, String message) {
        return new Failed(message, FailureKind.PERMANENT, code);
    }

    static Failed transientFailure(String code, String message) {
        return new Failed(message, FailureKind.TRANSIENT, code);
    }

    /** @param output the node's output, any JSON value */
    record Completed(JsonNode output) implements TaskResult {
        public Completed {
            Objects.requireNonNull(output, "output");
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
