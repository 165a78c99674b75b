package io.tokenflow.engine.conditions;

import java.util.Optional;

import com.networknt.schema.Schema;
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
        Optional<JsonSchemas.Problem> problem = schemas.problem(schema);
        return problem.isEmpty() || check.error(member + problem.get().pointer(), problem.get().message());
    }
}
