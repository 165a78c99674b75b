package io.tokenflow.designer;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.ConflictException;
import tools.jackson.databind.JsonNode;

/** Creates a workflow from a DSL document (or a seed-004 plan) as its version 1, only if it compiles. */
@Service
public class CreateWorkflow {

    private final WorkflowRepository workflows;
    private final WorkflowVersionRepository versions;
    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;
    private final Clock clock;

    CreateWorkflow(WorkflowRepository workflows, WorkflowVersionRepository versions, WorkflowCompilation compilation,
                   WorkflowDocuments documents, Clock clock) {
        this.workflows = workflows;
        this.versions = versions;
        this.compilation = compilation;
        this.documents = documents;
        this.clock = clock;
    }

    @Transactional
    public WorkflowSnapshot create(JsonNode document, String author) {
        CompilationResult result = compilation.compileOrThrow(document);
        JsonNode dsl = result.dsl();
        String name = dsl.get("name").asString();
        String tenant = CurrentTenant.forNewRows();
        if (workflows.existsByTenantAndName(tenant, name)) {
            throw new ConflictException("Expected a new workflow name, but '" + name + "' is already taken; "
                    + "patch that workflow instead, or choose another name", Map.of("pointer", "/name"));
        }
        var now = clock.instant();
        String description = dsl.has("description") ? dsl.get("description").asString() : null;
        Workflow workflow = workflows.save(new Workflow(UUID.randomUUID(), tenant, name, description, author, now));
        versions.save(new WorkflowVersion(workflow.id(), 1, documents.write(dsl), documents.write(result.ir()),
                documents.contentHash(dsl), null, null, "Created", author, now));
        return new WorkflowSnapshot(workflow.id(), name, description, 1, 1, Map.of(), author, now, now, dsl,
                documents.toTree(result.ir()), result.warnings(), true);
    }
}
