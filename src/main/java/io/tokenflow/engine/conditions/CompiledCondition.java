package io.tokenflow.engine.conditions;

import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;

/**
 * A condition checked at compile time, in its normalised JSON form ({@code {"type": "cel", "expression": …}}).
 * The IR stores only the definition; reading it back recomputes {@code contextNodes} from it.
 *
 * @param contextNodes the node ids whose outputs the condition reads ({@code ctx.<id>} in CEL, context sources of
 *                     jsonpath, schema_validation and cross-node sides, members of composites, a Python condition's
 *                     {@code context_nodes}); an evaluation needs only these in {@link ConditionContext#nodeOutputs()}
 */
public record CompiledCondition(String type, JsonNode definition, Set<String> contextNodes) {

    public CompiledCondition {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(definition, "definition");
        contextNodes = Set.copyOf(contextNodes);
    }

    @JsonCreator
    public static CompiledCondition fromJson(JsonNode definition) {
        return new CompiledCondition(definition.path("type").asString(), definition, ContextNodes.of(definition));
    }

    @JsonValue
    public JsonNode toJson() {
        return definition;
    }
}
