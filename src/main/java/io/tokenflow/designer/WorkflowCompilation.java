package io.tokenflow.designer;

import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;
import io.tokenflow.nodetypes.NodeTypeRegistry;
import io.tokenflow.web.InvalidWorkflowException;
import io.tokenflow.web.LimitsSettings;
import tools.jackson.databind.JsonNode;

/** Compiles documents against the current node-type registry and the configured limits. */
@Component
public class WorkflowCompilation {

    private final WorkflowCompiler compiler;
    private final NodeTypeRegistry nodeTypes;
    private final LimitsSettings limits;

    WorkflowCompilation(WorkflowCompiler compiler, NodeTypeRegistry nodeTypes, LimitsSettings limits) {
        this.compiler = compiler;
        this.nodeTypes = nodeTypes;
        this.limits = limits;
    }

    public CompilationResult compile(JsonNode document) {
        JsonNode nodes = document == null ? null : document.get("nodes");
        if (nodes != null && nodes.isArray() && nodes.size() > limits.maxNodes()) {
            return new CompilationResult(document, null, List.of(new Diagnostic(Severity.ERROR, "too-large", null,
                    "/nodes", "Expected at most " + limits.maxNodes() + " nodes, but found " + nodes.size())));
        }
        return compiler.compile(document, nodeTypes.snapshot());
    }

    /** Compiles and throws {@link InvalidWorkflowException} with every diagnostic when there is any error. */
    public CompilationResult compileOrThrow(JsonNode document) {
        CompilationResult result = compile(document);
        if (!result.succeeded()) {
            throw new InvalidWorkflowException(result.diagnostics());
        }
        return result;
    }
}
