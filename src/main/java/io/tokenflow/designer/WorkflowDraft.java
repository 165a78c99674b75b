package io.tokenflow.designer;

import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * What the editor's draft starts from: a version's stored DSL with the workflow's name and tags, neither compiled
 * again nor with its IR (the editor checks its draft itself once the canvas is drawn).
 */
public record WorkflowDraft(UUID id, String name, int version, Map<String, Integer> tags, JsonNode dsl) {

    public WorkflowDraft {
        tags = Map.copyOf(tags);
    }
}
