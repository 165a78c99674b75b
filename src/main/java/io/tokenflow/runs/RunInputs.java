package io.tokenflow.runs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.dsl.SchemaErrors;
import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;

/** Checks a run's inputs against the workflow's declared inputs (a JSON Schema), naming the input at fault. */
@Component
class RunInputs {

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    void check(JsonNode declared, JsonNode inputs) {
        if (declared == null || declared.isNull()) {
            return;
        }
        Schema schema = schemas.computeIfAbsent(declared.toString(), registry::getSchema);
        List<Error> errors = schema.validate(inputs);
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            String pointer = "/inputs" + SchemaErrors.pointerOf(first);
            throw new BadRequestException(422, "Expected inputs matching the workflow's declared inputs, but "
                    + first.getMessage(), pointer);
        }
    }
}
