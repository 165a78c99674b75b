package io.tokenflow.designer;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** A workflow in a list. */
public record WorkflowSummary(UUID id, String name, String description, int latestVersion, Map<String, Integer> tags,
                              String createdBy, Instant createdAt, Instant updatedAt) {

    public WorkflowSummary {
        tags = Map.copyOf(tags);
    }

    static WorkflowSummary of(Workflow workflow, Map<String, Integer> tags) {
        return new WorkflowSummary(workflow.id(), workflow.name(), workflow.description(), workflow.latestVersion(),
                tags, workflow.createdBy(), workflow.createdAt(), workflow.updatedAt());
    }
}
