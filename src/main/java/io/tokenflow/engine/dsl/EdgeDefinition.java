package io.tokenflow.engine.dsl;

import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * A directed edge as authored. A condition (a CEL string in seed-001 form, or a condition object) makes the edge
 * a branch rule of its source node.
 */
public record EdgeDefinition(String pointer, String from, String to, JsonNode condition) {

    public EdgeDefinition {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }

    public boolean isConditional() {
        return condition != null && !condition.isNull();
    }
}
