package io.tokenflow.designer;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.patch.JsonPatch;

/** Restores an old version as a new one: the stored patch is the diff from the latest version to the old one. */
@Service
public class RestoreVersion {

    private final WorkflowQueries queries;
    private final PatchWorkflow patches;
    private final WorkflowDocuments documents;

    RestoreVersion(WorkflowQueries queries, PatchWorkflow patches, WorkflowDocuments documents) {
        this.queries = queries;
        this.patches = patches;
        this.documents = documents;
    }

    @Transactional
    public WorkflowSnapshot restore(String reference, int version, int expectedLatest, String author) {
        Workflow workflow = queries.workflow(reference);
        var latest = documents.read(queries.version(workflow, workflow.latestVersion()).dsl());
        var old = documents.read(queries.version(workflow, version).dsl());
        return patches.apply(workflow.id(), expectedLatest, JsonPatch.diff(latest, old), author,
                "Restored version " + version);
    }
}
