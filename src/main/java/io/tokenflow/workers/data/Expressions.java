package io.tokenflow.workers.data;

import java.util.List;
import java.util.Map;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.cel.CelEngine;
import io.tokenflow.engine.cel.CelValues;
import io.tokenflow.workers.cel.ExpressionException;
import tools.jackson.databind.JsonNode;

/** The CEL side of the data workers: variables of a task, named config expressions, and the list to work on. */
final class Expressions {

    static final String DEFAULT_LIST = "input.items";

    private Expressions() {
    }

    /** {@code input} (as CEL values) and {@code token}. */
    static Map<String, Object> variables(Task task) {
        return Map.of("input", CelValues.toCel(task.input()), "token", task.token());
    }

    /** A string member of the config, or {@code fallback} when absent. */
    static String expression(JsonNode config, String member, String fallback) throws DataTaskException {
        JsonNode value = config.path(member);
        if (value.isMissingNode() || value.isNull()) {
            if (fallback == null) {
                throw DataTaskException.invalidConfig("Expected config." + member + " to be a CEL expression, "
                        + "but there is none");
            }
            return fallback;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw DataTaskException.invalidConfig("Expected config." + member + " to be a CEL expression, but found "
                    + value);
        }
        return value.stringValue();
    }

    /** The list that {@code config.list} (default {@value #DEFAULT_LIST}) gives. */
    static List<?> list(CelEngine cel, JsonNode config, Map<String, ?> variables) throws DataTaskException {
        String expression = expression(config, "list", DEFAULT_LIST);
        Object value = evaluate(cel, "list", expression, variables);
        if (!(value instanceof List<?> list)) {
            throw new DataTaskException("not_a_list", "Expected config.list '" + expression + "' to give a list, "
                    + "but it gave " + CelValues.toJson(value).getNodeType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return list;
    }

    /** Evaluates a config expression; a failure names the config member and the expression. */
    static Object evaluate(CelEngine cel, String member, String expression, Map<String, ?> variables)
            throws DataTaskException {
        try {
            return cel.evaluate(expression, variables);
        } catch (ExpressionException e) {
            throw new DataTaskException("expression_error", "In config." + member + ": " + e.getMessage());
        }
    }
}
