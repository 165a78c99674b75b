package io.tokenflow.designer;

import java.time.Instant;

import tools.jackson.databind.JsonNode;

/** One entry of a workflow's history: who made it, when, and the patch that made it. */
public record VersionSummary(int version, Integer parentVersion, String author, Instant createdAt, String message,
                             String contentHash, JsonNode patch) {

    static VersionSummary of(WorkflowVersion version, WorkflowDocuments documents) {
        return new VersionSummary(version.version(), version.parentVersion(), version.author(), version.createdAt(),
                version.message(), version.contentHash(), documents.read(version.patch()));
    }
}
