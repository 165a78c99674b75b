package io.tokenflow.agents.pipeline;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code table_select}: keeps some fields of each row: {@code fields} is a list of (dotted) fields, or an object
 * mapping output names to fields. Fields a row lacks are left out of it.
 */
@Component
class TableSelectStep implements PipelineStep {

    @Override
    public String name() {
        return "table_select";
    }

    @Override
    public String usage() {
        return "{\"step\":\"table_select\",\"fields\":[\"name\",\"price\"] or {\"out\":\"a.b\"}} keeps (and renames) "
                + "fields";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        Map<String, String> fields = fields(step.path("fields"));
        ArrayNode result = JsonNodeFactory.instance.arrayNode();
        for (JsonNode row : Rows.of(data)) {
            ObjectNode selected = result.addObject();
            fields.forEach((name, path) -> {
                JsonNode value = Rows.field(row, path);
                if (!value.isMissingNode()) {
                    selected.set(name, value);
                }
            });
        }
        return result;
    }

    private static Map<String, String> fields(JsonNode fields) throws PipelineException {
        Map<String, String> byName = new LinkedHashMap<>();
        if (fields.isArray()) {
            for (JsonNode field : fields) {
                byName.put(name(field), name(field));
            }
        } else if (fields.isObject()) {
            for (Map.Entry<String, JsonNode> field : fields.properties()) {
                byName.put(field.getKey(), name(field.getValue()));
            }
        }
        if (byName.isEmpty()) {
            throw new PipelineException("Expected \"fields\" to be a non-empty list of field names (or an object of "
                    + "output name to field), but found " + (fields.isMissingNode() ? "none" : fields));
        }
        return byName;
    }

    private static String name(JsonNode field) throws PipelineException {
        if (!field.isString() || field.stringValue().isBlank()) {
            throw new PipelineException("Expected field names to be non-empty strings, but found " + field);
        }
        return field.stringValue();
    }
}
