package io.tokenflow.engine.conditions;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.tokenflow.engine.dsl.SchemaErrors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code {"type": "schema_validation", "schema": {…}, "invert": true}}: holds when the output (or {@code source})
 * matches a JSON Schema 2020-12 given inline or as {@code schema_ref} to CAS; {@code invert} turns that around
 * ("loop while the output does not match"). Schemas are checked against the meta-schema when the workflow compiles,
 * may only refer inside themselves ({@code #…}), and are compiled once.
 */
final class SchemaCondition implements ConditionType {

    private static final Set<String> COUNT_KEYWORDS = Set.of("maxLength", "minLength", "maxItems", "minItems",
            "maxProperties", "minProperties", "maxContains", "minContains");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JsonSchemas schemas = new JsonSchemas();
    private final CasContent cas;
    private final ConditionCache<Schema> compiled;

    SchemaCondition(ConditionLimits limits, CasContent cas) {
        this.cas = cas;
        this.compiled = new ConditionCache<>(limits.cacheSize());
        warmUp();
    }

    /** Loads the validator's classes now, so the first real evaluation is not charged for it against its deadline. */
    private void warmUp() {
        JsonNode schema = JSON.readTree("{\"type\": \"object\", \"required\": [\"a\"], \"properties\": "
                + "{\"a\": {\"type\": \"string\", \"pattern\": \"^x\", \"minLength\": 1}}}");
        schemas.metaSchemaErrors(schema);
        JsonSchemas.matches(schemas.load(schema), JSON.readTree("{\"a\": \"xy\"}"));
    }

    @Override
    public String name() {
        return "schema_validation";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        boolean inline = condition.has("schema");
        String member = inline ? "/schema" : "/schema_ref";
        Optional<JsonNode> schema = inline ? Optional.of(condition.get("schema"))
                : stored(condition.path("schema_ref").asString(""));
        if (schema.isEmpty()) {
            return check.error(member, "Expected schema_ref to refer to a JSON Schema stored in CAS, but "
                    + condition.path("schema_ref").asString("") + " holds none");
        }
        return checkSchema(schema.get(), member, check) && Subject.check(condition, "", check);
    }

    @Override
    public void prepare(JsonNode condition, ConditionEngine engine) {
        schema(condition);
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        Schema schema = schema(condition);
        JsonNode subject = Subject.resolve(condition, evaluation);
        evaluation.deadline().check("the schema_validation condition");
        boolean matches = JsonSchemas.matches(schema, subject);
        return matches != condition.path("invert").asBoolean(false);
    }

    private Schema schema(JsonNode condition) {
        return condition.has("schema") ? compiled.get(condition.get("schema").toString(),
                text -> schemas.load(condition.get("schema"))) : referenced(condition.path("schema_ref").asString());
    }

    private Schema referenced(String reference) {
        return compiled.get(reference, ref -> schemas.load(stored(ref).orElseThrow(() ->
                new ConditionEvaluationException("Expected schema_ref " + ref + " to hold a JSON Schema, but CAS "
                        + "has no JSON stored there"))));
    }

    private Optional<JsonNode> stored(String reference) {
        try {
            return cas.get(reference).map(JSON::readTree);
        } catch (JacksonException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private boolean checkSchema(JsonNode schema, String member, ConditionCheck check) {
        Optional<String> external = externalReference(schema, "");
        if (external.isPresent()) {
            return check.error(member + external.get(), "Expected only references inside the schema (#…), but found "
                    + "one to another document; nothing is fetched while a condition is evaluated");
        }
        Optional<String> tooLarge = countBeyondInt(schema, "");
        if (tooLarge.isPresent()) {
            String keyword = tooLarge.get().substring(tooLarge.get().lastIndexOf('/') + 1);
            return check.error(member + tooLarge.get(), "Expected " + keyword + " to be a whole number from 0 to "
                    + Integer.MAX_VALUE + ", but found " + schema.at(tooLarge.get()));
        }
        List<Error> errors;
        try {
            errors = schemas.metaSchemaErrors(schema);
        } catch (RuntimeException e) {
            // the meta-schema's own validators fail on some values rather than report them
            return check.error(member, "Expected a valid JSON Schema (draft 2020-12), but it cannot be checked: "
                    + e.getMessage());
        }
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            return check.error(member + SchemaErrors.pointerOf(first), "Expected a valid JSON Schema (draft 2020-12), "
                    + "but " + first.getMessage());
        }
        try {
            schemas.load(schema);
            return true;
        } catch (RuntimeException e) {
            return check.error(member, "Expected a JSON Schema whose patterns RE2 can run in linear time (no "
                    + "back-references or look-arounds), but " + e.getMessage());
        }
    }

    /**
     * The pointer of the first length or count keyword ({@code maxLength}, {@code minItems}…) beyond Java's int: the
     * meta-schema takes any number without a fraction (1e308 too), but the validators read them as ints and fail.
     */
    private static Optional<String> countBeyondInt(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (var entry : node.properties()) {
                String at = pointer + "/" + entry.getKey().replace("~", "~0").replace("/", "~1");
                JsonNode value = entry.getValue();
                if (COUNT_KEYWORDS.contains(entry.getKey()) && value.isNumber() && !value.canConvertToInt()) {
                    return Optional.of(at);
                }
                Optional<String> inside = countBeyondInt(value, at);
                if (inside.isPresent()) {
                    return inside;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> inside = countBeyondInt(node.get(i), pointer + "/" + i);
                if (inside.isPresent()) {
                    return inside;
                }
            }
        }
        return Optional.empty();
    }

    /** The pointer of the first {@code $ref} or {@code $dynamicRef} that leaves the schema, if any. */
    private static Optional<String> externalReference(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (var member : node.properties()) {
                String at = pointer + "/" + member.getKey().replace("~", "~0").replace("/", "~1");
                boolean reference = member.getKey().equals("$ref") || member.getKey().equals("$dynamicRef");
                if (reference && !member.getValue().asString("").startsWith("#")) {
                    return Optional.of(at);
                }
                Optional<String> inner = externalReference(member.getValue(), at);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> inner = externalReference(node.get(i), pointer + "/" + i);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }
}
