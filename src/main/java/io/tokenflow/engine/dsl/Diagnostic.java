package io.tokenflow.engine.dsl;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One problem found in a workflow document.
 *
 * @param severity whether it prevents compilation
 * @param code     a stable, machine-readable kind, e.g. {@code unknown-node}
 * @param nodeId   the node at fault, or {@code null} for a workflow-level problem
 * @param pointer  RFC 6901 pointer into the submitted document ({@code ""} for the whole document)
 * @param message  what was expected and what was found
 */
public record Diagnostic(Severity severity, String code, @JsonProperty("node") String nodeId, String pointer,
                         String message) {

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(message, "message");
    }

    public static Diagnostic error(String code, String nodeId, String pointer, String message) {
        return new Diagnostic(Severity.ERROR, code, nodeId, pointer, message);
    }

    public static Diagnostic warning(String code, String nodeId, String pointer, String message) {
        return new Diagnostic(Severity.WARNING, code, nodeId, pointer, message);
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }
}
