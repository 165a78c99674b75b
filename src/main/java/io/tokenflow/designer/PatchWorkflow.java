package io.tokenflow.designer;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.engine.patch.InvalidPatchException;
import io.tokenflow.engine.patch.JsonPatch;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.LimitsSettings;
import io.tokenflow.web.NotFoundException;
import tools.jackson.databind.JsonNode;

/**
 * Applies an RFC 6902 patch to a workflow's latest version and stores the result as the next version, only if the
 * patch applies to exactly the version the caller saw and the result compiles. Nothing is stored otherwise.
 */
@Service
public class PatchWorkflow {

    private final WorkflowRepository workflows;
    private final WorkflowVersionRepository versions;
    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;
    private final WorkflowQueries queries;
    private final LimitsSettings limits;
    private final Clock clock;

    PatchWorkflow(WorkflowRepository workflows, WorkflowVersionRepository versions, WorkflowCompilation compilation,
                  WorkflowDocuments documents, WorkflowQueries queries, LimitsSettings limits, Clock clock) {
        this.workflows = workflows;
        this.versions = versions;
        this.compilation = compilation;
        this.documents = documents;
        this.queries = queries;
        this.limits = limits;
        this.clock = clock;
    }

    @Transactional
    public WorkflowSnapshot patch(UUID workflowId, int expectedVersion, String patchText, String author, String message) {
        JsonPatch patch = JsonPatch.parse(patchText);
        if (patch.size() > limits.maxPatchOperations()) {
            throw new InvalidPatchException("Expected at most " + limits.maxPatchOperations() + " operations, but the "
                    + "patch has " + patch.size(), limits.maxPatchOperations(), "/" + limits.maxPatchOperations());
        }
        return apply(workflowId, expectedVersion, patch, author, message);
    }

    @Transactional
    public WorkflowSnapshot apply(UUID workflowId, int expectedVersion, JsonPatch patch, String author, String message) {
        Workflow workflow = workflows.findForUpdate(workflowId).filter(found -> CurrentTenant.sees(found.tenant()))
                .orElseThrow(() -> new NotFoundException("Expected a workflow with id " + workflowId + ", but there is none"));
        if (workflow.latestVersion() != expectedVersion) {
            throw new ConflictException("Expected to change version " + expectedVersion + " (If-Match), but the latest "
                    + "version is " + workflow.latestVersion() + "; reload it and apply your change again",
                    Map.of("latestVersion", workflow.latestVersion()));
        }
        WorkflowVersion current = versions.findByWorkflowIdAndVersion(workflowId, expectedVersion).orElseThrow();
        JsonNode patched = patch.apply(documents.read(current.dsl()));
        CompilationResult result = compilation.compileOrThrow(patched, workflowId);
        String hash = documents.contentHash(result.dsl());
        if (hash.equals(current.contentHash())) {
            return queries.snapshot(workflow, current, false);
        }
        return store(workflow, current, result, patch, hash, author, message);
    }

    private WorkflowSnapshot store(Workflow workflow, WorkflowVersion parent, CompilationResult result, JsonPatch patch,
                                   String hash, String author, String message) {
        JsonNode dsl = result.dsl();
        String name = dsl.get("name").asString();
        if (!name.equals(workflow.name()) && workflows.existsByTenantAndName(workflow.tenant(), name)) {
            throw new ConflictException("Expected the new name '" + name + "' to be free, but another workflow has it",
                    Map.of("pointer", "/name"));
        }
        var now = clock.instant();
        int next = parent.version() + 1;
        workflow.advanceTo(next, name, dsl.has("description") ? dsl.get("description").asString() : null, now);
        WorkflowVersion version = versions.save(new WorkflowVersion(workflow.id(), next, documents.write(dsl),
                documents.write(result.ir()), hash, parent.version(), documents.write(patch.toJson()), message,
                author, now));
        return queries.snapshot(workflow, version, true);
    }
}
