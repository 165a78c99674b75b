package io.tokenflow.workers.data;

import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import io.tokenflow.workers.cel.CelEngine;
import io.tokenflow.engine.cel.CelValues;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** {@code transform}: an output object with one field per {@code config.fields} entry, each a CEL expression. */
@Component
public class TransformTaskHandler implements TaskHandler {

    private final CelEngine cel;

    public TransformTaskHandler(CelEngine cel) {
        this.cel = cel;
    }

    @Override
    public String type() {
        return "transform";
    }

    /** Bounded CEL over the input: nothing but the result. */
    @Override
    public boolean sideEffectFree(Task task) {
        return true;
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            return TaskResult.completed(transform(task));
        } catch (DataTaskException e) {
            return e.toResult();
        }
    }

    private ObjectNode transform(Task task) throws DataTaskException {
        JsonNode fields = task.config().path("fields");
        if (!fields.isObject() || fields.isEmpty()) {
            throw DataTaskException.invalidConfig("Expected config.fields to map output fields to CEL expressions, "
                    + "but found " + (fields.isMissingNode() ? "none" : fields.toString()));
        }
        Map<String, Object> variables = Expressions.variables(task);
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : fields.properties()) {
            String expression = Expressions.expression(fields, field.getKey(), null);
            Object value = Expressions.evaluate(cel, "fields." + field.getKey(), expression, variables);
            output.set(field.getKey(), CelValues.toJson(value));
        }
        return output;
    }
}
