package io.tokenflow.workers.data;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import io.tokenflow.workers.cel.CelEngine;
import io.tokenflow.engine.cel.CelValues;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code filter}: keeps the items of {@code config.list} (default {@code input.items}) for which the CEL
 * {@code config.predicate} over {@code item} (and {@code input}) is true; outputs {@code {"items": [...], "count": n}}.
 */
@Component
public class FilterTaskHandler implements TaskHandler {

    private final CelEngine cel;

    public FilterTaskHandler(CelEngine cel) {
        this.cel = cel;
    }

    @Override
    public String type() {
        return "filter";
    }

    /** Bounded CEL over the input: nothing but the result. */
    @Override
    public boolean sideEffectFree(Task task) {
        return true;
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            return TaskResult.completed(filter(task));
        } catch (DataTaskException e) {
            return e.toResult();
        }
    }

    private ObjectNode filter(Task task) throws DataTaskException {
        String predicate = Expressions.expression(task.config(), "predicate", null);
        Map<String, Object> variables = new HashMap<>(Expressions.variables(task));
        List<?> items = Expressions.list(cel, task.config(), variables);
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < items.size(); i++) {
            variables.put("item", items.get(i));
            Object keep = Expressions.evaluate(cel, "predicate", predicate, variables);
            if (!(keep instanceof Boolean)) {
                throw new DataTaskException("not_a_boolean", "Expected config.predicate '" + predicate
                        + "' to give true or false, but it gave " + CelValues.toJson(keep) + " for item " + i);
            }
            if ((Boolean) keep) {
                kept.add(CelValues.toJson(items.get(i)));
            }
        }
        ObjectNode output = JsonNodeFactory.instance.objectNode();
        output.set("items", kept);
        output.put("count", kept.size());
        return output;
    }
}
