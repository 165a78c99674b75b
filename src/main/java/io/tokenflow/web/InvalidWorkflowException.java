package io.tokenflow.web;

import java.util.List;

import io.tokenflow.engine.dsl.Diagnostic;

/** A workflow document does not compile (422); carries every diagnostic. */
public class InvalidWorkflowException extends RuntimeException {

    private final List<Diagnostic> diagnostics;

    public InvalidWorkflowException(List<Diagnostic> diagnostics) {
        super(summary(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    private static String summary(List<Diagnostic> diagnostics) {
        List<Diagnostic> errors = diagnostics.stream().filter(Diagnostic::isError).toList();
        String first = errors.isEmpty() ? "" : ": " + errors.get(0).message();
        return "The workflow does not compile (" + errors.size() + (errors.size() == 1 ? " error" : " errors") + ")"
                + (errors.size() == 1 ? first : "; first" + first);
    }
}
