package io.tokenflow.engine.conditions;

import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;

/**
 * A condition checked at compile time, in its normalised JSON form ({@code {"type": "cel", "expression": …}}).
 *
 * @param contextNodes the node ids whose outputs the condition reads ({@code ctx.<id>} / context sources)
 */
public record CompiledCondition(String type, JsonNode definition, Set<String> contextNodes) {

    public CompiledCondition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(definition, "definition");
        contextNodes = Set.copyOf(contextNodes);
    }

    @JsonCreator
    public static CompiledCondition fromJson(JsonNode definition) {
        return new CompiledCondition(definition.path("type").asString(), definition, Set.of());
    }

    @JsonValue
    public JsonNode toJson() {
        return definition;
    }
}
