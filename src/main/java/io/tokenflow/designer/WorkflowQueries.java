package io.tokenflow.designer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.patch.JsonPatch;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.NotFoundException;

/** Reading workflows, versions, tags and diffs. */
@Service
@Transactional(readOnly = true)
public class WorkflowQueries {

    private final WorkflowRepository workflows;
    private final WorkflowVersionRepository versions;
    private final WorkflowTagRepository tags;
    private final WorkflowCompilation compilation;
    private final WorkflowDocuments documents;

    WorkflowQueries(WorkflowRepository workflows, WorkflowVersionRepository versions, WorkflowTagRepository tags,
                    WorkflowCompilation compilation, WorkflowDocuments documents) {
        this.workflows = workflows;
        this.versions = versions;
        this.tags = tags;
        this.compilation = compilation;
        this.documents = documents;
    }

    /** A page of the current tenant's workflows, optionally filtered by text in name or description. */
    public Page<WorkflowSummary> list(String text, Pageable page) {
        String tenant = CurrentTenant.forNewRows();
        Page<Workflow> found = text == null || text.isBlank() ? workflows.findByTenant(tenant, page)
                : workflows.search(tenant, text.trim(), page);
        Map<UUID, Map<String, Integer>> tagsById = tags.findByWorkflowIdIn(found.map(Workflow::id).toList()).stream()
                .collect(Collectors.groupingBy(WorkflowTag::workflowId,
                        Collectors.toMap(WorkflowTag::tag, WorkflowTag::version)));
        return found.map(w -> WorkflowSummary.of(w, tagsById.getOrDefault(w.id(), Map.of())));
    }

    /**
     * Finds a workflow of the current tenant by id, or by name when the reference is not a UUID. A thread acting for no
     * tenant (the engine) finds any tenant's workflow by id, and by name the default tenant's.
     */
    public Workflow workflow(String reference) {
        Optional<Workflow> found = asUuid(reference).flatMap(workflows::findById)
                .filter(workflow -> CurrentTenant.sees(workflow.tenant()))
                .or(() -> workflows.findByTenantAndName(CurrentTenant.forNewRows(), reference));
        return found.orElseThrow(() -> new NotFoundException("Expected a workflow with id or name '" + reference
                + "', but there is none"));
    }

    public WorkflowSnapshot latest(String reference) {
        Workflow workflow = workflow(reference);
        return snapshot(workflow, version(workflow, workflow.latestVersion()), false);
    }

    /** The latest version as the editor's draft starts from it (not compiled again: see {@link WorkflowDraft}). */
    public WorkflowDraft latestDraft(String reference) {
        Workflow workflow = workflow(reference);
        WorkflowVersion latest = version(workflow, workflow.latestVersion());
        return new WorkflowDraft(workflow.id(), workflow.name(), latest.version(), tags(workflow.id()),
                documents.read(latest.dsl()));
    }

    public WorkflowSnapshot atVersion(String reference, int version) {
        Workflow workflow = workflow(reference);
        return snapshot(workflow, version(workflow, version), false);
    }

    public List<VersionSummary> versions(String reference) {
        Workflow workflow = workflow(reference);
        return versions.findByWorkflowIdOrderByVersionDesc(workflow.id()).stream()
                .map(v -> VersionSummary.of(v, documents)).toList();
    }

    /** The most recently changed workflow other than the given one (what a new workflow node calls first). */
    public Optional<Workflow> lastChangedOtherThan(UUID workflowId) {
        return workflows.findFirstByTenantAndIdNotOrderByUpdatedAtDesc(CurrentTenant.forNewRows(), workflowId);
    }

    /** The names of the workflows other than the given one, by name (the first {@code limit}). */
    public List<String> namesOtherThan(UUID workflowId, int limit) {
        return workflows.findNamesOtherThan(CurrentTenant.forNewRows(), workflowId, Pageable.ofSize(limit));
    }

    public Map<String, Integer> tags(UUID workflowId) {
        Map<String, Integer> byTag = new LinkedHashMap<>();
        tags.findByWorkflowIdOrderByTag(workflowId).forEach(tag -> byTag.put(tag.tag(), tag.version()));
        return byTag;
    }

    /** The RFC 6902 patch that turns version {@code from} into version {@code to}. */
    public JsonPatch diff(String reference, int from, int to) {
        Workflow workflow = workflow(reference);
        return JsonPatch.diff(documents.read(version(workflow, from).dsl()), documents.read(version(workflow, to).dsl()));
    }

    WorkflowVersion version(Workflow workflow, int version) {
        return versions.findByWorkflowIdAndVersion(workflow.id(), version).orElseThrow(() -> new NotFoundException(
                "Expected version " + version + " of workflow '" + workflow.name() + "', but its versions are 1 to "
                        + workflow.latestVersion()));
    }

    WorkflowSnapshot snapshot(Workflow workflow, WorkflowVersion version, boolean changed) {
        var dsl = documents.read(version.dsl());
        var warnings = compilation.compileStored(dsl).warnings();
        return new WorkflowSnapshot(workflow.id(), workflow.name(), workflow.description(), version.version(),
                workflow.latestVersion(), tags(workflow.id()), version.author(), version.createdAt(),
                workflow.updatedAt(), dsl, documents.read(version.ir()), warnings, changed);
    }

    private static Optional<UUID> asUuid(String reference) {
        try {
            return Optional.of(UUID.fromString(reference));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
