package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.tokenflow.designer.InspectorField.Widget;
import io.tokenflow.engine.patch.JsonPointer;
import tools.jackson.databind.JsonNode;

/**
 * The inspector's config form, generated from a node type's config JSON Schema: one field per declared property
 * (enums as choices, strings, numbers and booleans as such, anything else as JSON), then the config members the
 * schema does not declare. A schema declaring no properties gets one JSON field for the whole config.
 */
final class ConfigFields {

    private ConfigFields() {
    }

    static List<InspectorField> of(JsonNode schema, JsonNode config, String configPath) {
        JsonNode properties = schema.path("properties");
        if (!properties.isObject() || properties.isEmpty()) {
            return List.of(new InspectorField(configPath, "Config", Widget.JSON,
                    InspectorField.text(config, Widget.JSON), List.of(), false,
                    "A JSON object; this type's schema declares no fields."));
        }
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(name -> required.add(name.asString()));
        List<InspectorField> fields = new ArrayList<>();
        properties.properties().forEach(property -> fields.add(InspectorField.fromSchema(config,
                member(configPath, property.getKey()), property.getKey(), property.getValue(),
                required.contains(property.getKey()))));
        config.propertyNames().stream().filter(name -> !properties.has(name)).forEach(name -> fields.add(
                InspectorField.of(config, member(configPath, name), name, Widget.JSON,
                        "Not declared by the type's schema.")));
        return fields;
    }

    private static String member(String objectPath, String name) {
        return JsonPointer.parse(objectPath).append(name).toString();
    }
}
