package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.tokenflow.engine.patch.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The "start a run" form of a stored version: one field per input its {@code inputs} schema declares, typed as
 * declared (field paths are pointers into the run's inputs object).
 */
public record RunForm(int version, List<InspectorField> fields) {

    public RunForm {
        fields = List.copyOf(fields);
    }

    static RunForm of(int version, JsonNode dsl) {
        JsonNode inputs = dsl.path("inputs");
        Set<String> required = new HashSet<>();
        inputs.path("required").forEach(name -> required.add(name.asString()));
        ObjectNode defaults = JsonNodeFactory.instance.objectNode();
        inputs.path("properties").properties().forEach(input -> {
            if (input.getValue().has("default")) {
                defaults.set(input.getKey(), input.getValue().get("default"));
            }
        });
        List<InspectorField> fields = new ArrayList<>();
        inputs.path("properties").properties().forEach(input -> fields.add(InspectorField.fromSchema(defaults,
                JsonPointer.root().append(input.getKey()).toString(), input.getKey(), input.getValue(),
                required.contains(input.getKey()))));
        return new RunForm(version, fields);
    }
}
