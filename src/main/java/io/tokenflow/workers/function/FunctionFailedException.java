package io.tokenflow.workers.function;

import java.util.Objects;

import io.tokenflow.workers.FailureKind;

/** Thrown by a {@link WorkflowFunction} to fail its node with a chosen kind and code. */
public class FunctionFailedException extends RuntimeException {

    private final FailureKind kind;
    private final String code;

    public FunctionFailedException(String message, FailureKind kind, String code) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.code = Objects.requireNonNull(code, "code");
    }

    public FailureKind kind() {
        return kind;
    }

    public String code() {
        return code;
    }
}
