package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;
import io.tokenflow.nodetypes.NodeTypeRegistry;
import io.tokenflow.web.InvalidWorkflowException;
import io.tokenflow.web.LimitsSettings;
import tools.jackson.databind.JsonNode;

/**
 * Compiles documents against the current node-type registry and the configured limits. A document about to be
 * stored (or checked as a draft) is also checked against the workflows it calls ({@link WorkflowCalls}); a stored
 * one compiled again to run it is not, so that it keeps compiling however the workflows it calls change. A document
 * about to be stored must also keep within the size and nesting limits ({@link DocumentBounds}).
 */
@Component
public class WorkflowCompilation {

    private final WorkflowCompiler compiler;
    private final NodeTypeRegistry nodeTypes;
    private final LimitsSettings limits;
    private final WorkflowCalls calls;

    WorkflowCompilation(WorkflowCompiler compiler, NodeTypeRegistry nodeTypes, LimitsSettings limits,
                        WorkflowCalls calls) {
        this.compiler = compiler;
        this.nodeTypes = nodeTypes;
        this.limits = limits;
        this.calls = calls;
    }

    /** Compiles a new document (named by its {@code name}), and checks its calls of other workflows. */
    public CompilationResult compile(JsonNode document) {
        return compile(document, null);
    }

    /**
     * Compiles a document, and when it compiles checks its calls of other workflows.
     *
     * @param workflowId the workflow the document is to be a version of, or {@code null} for a new workflow
     */
    public CompilationResult compile(JsonNode document, UUID workflowId) {
        Optional<Diagnostic> outsize = DocumentBounds.check(document, limits);
        if (outsize.isPresent()) {
            return new CompilationResult(document, null, List.of(outsize.get()));
        }
        CompilationResult result = compileStored(document);
        if (!result.succeeded()) {
            return result;
        }
        List<Diagnostic> problems = calls.check(result.dsl(), workflowId);
        if (problems.isEmpty()) {
            return result;
        }
        List<Diagnostic> diagnostics = new ArrayList<>(result.diagnostics());
        diagnostics.addAll(problems);
        return new CompilationResult(result.dsl(), null, diagnostics);
    }

    /**
     * Compiles a document that is already stored (a version, a run's revision) on its own, without asking about the
     * workflows it calls: a stored version never stops compiling because another workflow changed.
     */
    public CompilationResult compileStored(JsonNode document) {
        JsonNode nodes = document == null ? null : document.get("nodes");
        if (nodes != null && nodes.isArray() && nodes.size() > limits.maxNodes()) {
            return new CompilationResult(document, null, List.of(new Diagnostic(Severity.ERROR, "too-large", null,
                    "/nodes", "Expected at most " + limits.maxNodes() + " nodes, but found " + nodes.size())));
        }
        return compiler.compile(document, nodeTypes.snapshot());
    }

    /** Compiles a new document and throws {@link InvalidWorkflowException} with every diagnostic on any error. */
    public CompilationResult compileOrThrow(JsonNode document) {
        return compileOrThrow(document, null);
    }

    /** {@link #compile(JsonNode, UUID)}, throwing {@link InvalidWorkflowException} with every diagnostic on errors. */
    public CompilationResult compileOrThrow(JsonNode document, UUID workflowId) {
        return orThrow(compile(document, workflowId));
    }

    /** {@link #compileStored(JsonNode)}, throwing {@link InvalidWorkflowException} when it does not compile. */
    public CompilationResult compileStoredOrThrow(JsonNode document) {
        return orThrow(compileStored(document));
    }

    private static CompilationResult orThrow(CompilationResult result) {
        if (!result.succeeded()) {
            throw new InvalidWorkflowException(result.diagnostics());
        }
        return result;
    }
}
