package io.tokenflow.engine.compiler;

import java.util.List;
import java.util.Optional;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.ir.WorkflowIr;
import tools.jackson.databind.JsonNode;

/**
 * The outcome of compiling one document: the IR when there is no error, and every diagnostic found.
 *
 * @param dsl the workflow DSL that was compiled (a seed-004 plan is converted first), or {@code null} if unreadable
 */
public record CompilationResult(JsonNode dsl, WorkflowIr ir, List<Diagnostic> diagnostics) {

    public CompilationResult {
        diagnostics = List.copyOf(diagnostics);
        if (ir != null && diagnostics.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("Expected no IR alongside errors");
        }
    }

    public boolean succeeded() {
        return ir != null;
    }

    public Optional<WorkflowIr> irIfCompiled() {
        return Optional.ofNullable(ir);
    }

    public List<Diagnostic> errors() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }

    public List<Diagnostic> warnings() {
        return diagnostics.stream().filter(d -> !d.isError()).toList();
    }
}
