package io.tokenflow.runs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.conditions.JsonSchemas;
import io.tokenflow.engine.dsl.SchemaErrors;
import io.tokenflow.web.BadRequestException;
import tools.jackson.databind.JsonNode;

/** Checks a run's inputs against the workflow's declared inputs (a JSON Schema), naming the input at fault. */
@Component
class RunInputs {

    // RE2 patterns and nothing fetched (the compiler refused any other schema): a backtracking pattern in a user's
    // schema would hold this request thread for as long as it liked
    private final JsonSchemas loader = new JsonSchemas();
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    void check(JsonNode declared, JsonNode inputs) {
        if (declared == null || declared.isNull()) {
            return;
        }
        Schema schema;
        try {
            schema = schemas.computeIfAbsent(declared.toString(), text -> loader.load(declared));
        } catch (RuntimeException e) {
            // a version stored before its inputs were checked as the compiler checks them now
            throw new BadRequestException(422, "Expected the workflow's declared inputs to be a JSON Schema whose "
                    + "patterns RE2 can run, but " + e.getMessage() + "; patch the workflow's inputs", "/inputs");
        }
        List<Error> errors = schema.validate(inputs);
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            String pointer = "/inputs" + SchemaErrors.pointerOf(first);
            throw new BadRequestException(422, "Expected inputs matching the workflow's declared inputs, but "
                    + first.getMessage(), pointer);
        }
    }
}
