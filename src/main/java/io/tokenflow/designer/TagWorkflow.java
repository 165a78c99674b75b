package io.tokenflow.designer;

import java.time.Clock;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.NotFoundException;

/** Points a tag (such as {@code main}) at a version of a workflow, or removes it. */
@Service
public class TagWorkflow {

    private static final String TAG_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,62}";

    private final WorkflowTagRepository tags;
    private final WorkflowQueries queries;
    private final WorkflowCalls calls;
    private final Clock clock;

    TagWorkflow(WorkflowTagRepository tags, WorkflowQueries queries, WorkflowCalls calls, Clock clock) {
        this.tags = tags;
        this.queries = queries;
        this.calls = calls;
        this.clock = clock;
    }

    /**
     * Points {@code tag} at {@code version}, or at the latest version when it is {@code null}, unless a workflow
     * calling the tag would then call itself through the version's calls.
     */
    @Transactional
    public TagView tag(String reference, String tag, Integer version, String author) {
        if (tag == null || !tag.matches(TAG_PATTERN)) {
            throw new BadRequestException("Expected a tag of letters, digits, '.', '_' or '-' (at most 63), but found '"
                    + tag + "'", "path:tag");
        }
        Workflow workflow = queries.workflow(reference);
        int target = version == null ? workflow.latestVersion() : queries.version(workflow, version).version();
        calls.cycleFrom(workflow, target).ifPresent(cycle -> {
            throw new BadRequestException(422, cycle, "path:tag");
        });
        var now = clock.instant();
        WorkflowTag saved = tags.findByWorkflowIdAndTag(workflow.id(), tag)
                .map(existing -> {
                    existing.pointAt(target, author, now);
                    return existing;
                })
                .orElseGet(() -> tags.save(new WorkflowTag(workflow.id(), tag, target, author, now)));
        return new TagView(workflow.id(), saved.tag(), saved.version(), saved.updatedBy(), saved.updatedAt());
    }

    @Transactional
    public void untag(String reference, String tag) {
        Workflow workflow = queries.workflow(reference);
        WorkflowTag existing = tags.findByWorkflowIdAndTag(workflow.id(), tag).orElseThrow(() -> new NotFoundException(
                "Expected tag '" + tag + "' on workflow '" + workflow.name() + "', but it has no such tag"));
        tags.delete(existing);
    }

    /** A tag and the version it points at. */
    public record TagView(UUID workflowId, String tag, int version, String updatedBy, java.time.Instant updatedAt) {
    }
}
