package io.tokenflow.engine.dsl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The published JSON Schema (draft 2020-12) of the workflow DSL, and structural validation against it.
 * Validation errors become diagnostics at the exact JSON pointer.
 */
public final class WorkflowSchema {

    private static final String RESOURCE = "/io/tokenflow/engine/dsl/workflow.schema.json";
    private static final WorkflowSchema INSTANCE = load();

    private final JsonNode document;
    private final Schema schema;

    private WorkflowSchema(JsonNode document, Schema schema) {
        this.document = document;
        this.schema = schema;
    }

    public static WorkflowSchema get() {
        return INSTANCE;
    }

    /** The schema document as served at {@code GET /api/v1/schema/workflow}; callers must not mutate it. */
    public JsonNode document() {
        return document;
    }

    /** Adds one diagnostic per schema violation; returns whether the document is structurally valid. */
    public boolean validate(JsonNode workflow, Diagnostics diagnostics) {
        List<Error> errors = schema.validate(workflow);
        SchemaErrorTranslator translator = new SchemaErrorTranslator(workflow);
        errors.stream().map(translator::toDiagnostic).distinct().forEach(diagnostics::add);
        return errors.isEmpty();
    }

    private static WorkflowSchema load() {
        try (InputStream in = WorkflowSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Expected the workflow schema on the classpath at " + RESOURCE);
            }
            JsonNode document = JsonMapper.builder().build().readTree(in);
            Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(document.toString());
            return new WorkflowSchema(document, schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
