package io.tokenflow.designer;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.tokenflow.engine.dsl.Diagnostic;
import tools.jackson.databind.JsonNode;

/**
 * A workflow at one version, as the API and pages show it.
 *
 * @param diagnostics the warnings of that version (it compiled, so there are no errors)
 * @param changed     whether the request that produced it stored a new version
 */
public record WorkflowSnapshot(UUID id, String name, String description, int version, int latestVersion,
                               Map<String, Integer> tags, String author, Instant createdAt, Instant updatedAt,
                               JsonNode dsl, JsonNode ir, List<Diagnostic> diagnostics, boolean changed) {

    public WorkflowSnapshot {
        tags = Map.copyOf(tags);
        diagnostics = List.copyOf(diagnostics);
    }
}
