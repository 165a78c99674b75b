package io.tokenflow.designer;

import java.util.List;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.WorkflowSchema;
import tools.jackson.databind.JsonNode;

/** Dry-run compilation and the published DSL schema. */
@RestController
class CompileApi {

    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;

    CompileApi(WorkflowCompilation compilation, WorkflowDocuments documents) {
        this.compilation = compilation;
        this.documents = documents;
    }

    /** Compiles without storing: the IR when it compiles, and every diagnostic either way. */
    @PostMapping(path = "/api/v1/workflows/compile", consumes = MediaType.APPLICATION_JSON_VALUE)
    CompileResponse compile(@RequestBody String body) {
        CompilationResult result = compilation.compile(documents.parse(body));
        return new CompileResponse(result.succeeded(), result.dsl(),
                result.succeeded() ? documents.toTree(result.ir()) : null, result.diagnostics());
    }

    @GetMapping(path = "/api/v1/schema/workflow", produces = {"application/schema+json", MediaType.APPLICATION_JSON_VALUE})
    JsonNode schema() {
        return WorkflowSchema.get().document();
    }

    /** The outcome of a dry run; {@code dsl} is the converted document when a seed-004 plan was sent. */
    record CompileResponse(boolean valid, JsonNode dsl, JsonNode ir, List<Diagnostic> diagnostics) {
        CompileResponse {
            diagnostics = List.copyOf(diagnostics);
        }
    }
}
