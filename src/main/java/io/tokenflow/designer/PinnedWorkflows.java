package io.tokenflow.designer;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import io.tokenflow.engine.compiler.CompilationResult;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.InvalidWorkflowException;
import io.tokenflow.web.NotFoundException;

/**
 * Resolves what a run executes: a workflow (id or name) at a version or tag (the latest when neither is given),
 * compiled. Versions are immutable, so compiled versions are cached (any instance can rebuild the cache from
 * PostgreSQL; nothing lives only here).
 */
@Service
public class PinnedWorkflows {

    private static final int CACHE_LIMIT = 1_000;

    private final WorkflowQueries queries;
    private final WorkflowTagRepository tags;
    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;
    private final Map<WorkflowVersion.Key, CompiledVersion> compiled = new ConcurrentHashMap<>();
    private final TransactionTemplate reading;

    PinnedWorkflows(WorkflowQueries queries, WorkflowTagRepository tags, WorkflowCompilation compilation,
                    WorkflowDocuments documents, PlatformTransactionManager transactions) {
        this.reading = new TransactionTemplate(transactions);
        this.reading.setReadOnly(true);
        this.queries = queries;
        this.tags = tags;
        this.compilation = compilation;
        this.documents = documents;
    }

    /** Runs started by id and version (as clients starting many runs do) need no transaction at all once cached. */
    public PinnedWorkflow resolve(String reference, String tag, Integer version) {
        PinnedWorkflow cached = version == null ? null : cachedById(reference, version);
        if (cached != null) {
            return cached;
        }
        return reading.execute(status -> {
            Workflow workflow = queries.workflow(reference);
            int pinned = version != null ? version : tag != null ? tagged(workflow, tag) : workflow.latestVersion();
            return new PinnedWorkflow(workflow.id(), workflow.tenant(), workflow.name(), pinned, tag,
                    compiled(workflow, pinned).ir());
        });
    }

    /** A version known to exist (e.g. pinned by a running run). */
    @Transactional(readOnly = true)
    public PinnedWorkflow get(UUID workflowId, int version) {
        Workflow workflow = queries.workflow(workflowId.toString());
        return new PinnedWorkflow(workflowId, workflow.tenant(), workflow.name(), version, null,
                compiled(workflow, version).ir());
    }

    /** A version pinned by id is immutable: once compiled, starting it needs no database round trip. */
    private PinnedWorkflow cachedById(String reference, int version) {
        try {
            UUID id = UUID.fromString(reference);
            CompiledVersion compiledVersion = compiled.get(new WorkflowVersion.Key(id, version));
            return compiledVersion == null || !CurrentTenant.sees(compiledVersion.tenant()) ? null
                    : new PinnedWorkflow(id, compiledVersion.tenant(), compiledVersion.name(), version, null,
                    compiledVersion.result().ir());
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    private int tagged(Workflow workflow, String tag) {
        return tags.findByWorkflowIdAndTag(workflow.id(), tag).map(WorkflowTag::version)
                .orElseThrow(() -> new NotFoundException("Expected tag '" + tag + "' on workflow '" + workflow.name()
                        + "', but it has " + queries.tags(workflow.id()).keySet()));
    }

    private CompilationResult compiled(Workflow workflow, int version) {
        WorkflowVersion.Key key = new WorkflowVersion.Key(workflow.id(), version);
        CompiledVersion cached = compiled.get(key);
        CompilationResult result = cached == null ? null : cached.result();
        if (result == null) {
            result = compilation.compileStored(documents.read(queries.version(workflow, version).dsl()));
            if (result.succeeded()) {
                if (compiled.size() >= CACHE_LIMIT) {
                    compiled.clear();
                }
                compiled.put(key, new CompiledVersion(workflow.tenant(), workflow.name(), result));
            }
        }
        if (!result.succeeded()) {
            throw new InvalidWorkflowException(result.diagnostics());
        }
        return result;
    }

    /** A compiled version and the name its workflow had when it was compiled. */
    private record CompiledVersion(String tenant, String name, CompilationResult result) {
    }
}
