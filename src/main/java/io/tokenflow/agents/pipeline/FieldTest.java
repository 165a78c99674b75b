package io.tokenflow.agents.pipeline;

import java.util.Set;

import tools.jackson.databind.JsonNode;

/** {@code {"field": "price", "op": "<", "value": 300}}: one comparison of a row's field with a value. */
record FieldTest(String field, String op, JsonNode value) {

    private static final Set<String> OPS = Set.of("==", "!=", ">", ">=", "<", "<=", "contains", "in");

    static FieldTest of(JsonNode condition) throws PipelineException {
        String field = Rows.text(condition, "field");
        String op = Rows.text(condition, "op", "==");
        if (!OPS.contains(op)) {
            throw new PipelineException("Expected \"op\" among " + OPS + ", but found \"" + op + "\"");
        }
        JsonNode value = condition.path("value");
        if (op.equals("in") && !value.isArray()) {
            throw new PipelineException("Expected \"value\" of op \"in\" to be a list, but found "
                    + (value.isMissingNode() ? "none" : value));
        }
        return new FieldTest(field, op, value);
    }

    boolean holdsFor(JsonNode row) {
        JsonNode actual = Rows.field(row, field);
        switch (op) {
            case "==":
                return same(actual, value);
            case "!=":
                return !same(actual, value);
            case "contains":
                return contains(actual);
            case "in":
                for (JsonNode candidate : value) {
                    if (same(actual, candidate)) {
                        return true;
                    }
                }
                return false;
            default:
                return ordered(actual);
        }
    }

    private boolean ordered(JsonNode actual) {
        boolean comparable = actual.isNumber() && value.isNumber() || actual.isString() && value.isString();
        if (!comparable) {
            return false;
        }
        int order = Rows.compare(actual, value);
        return switch (op) {
            case ">" -> order > 0;
            case ">=" -> order >= 0;
            case "<" -> order < 0;
            default -> order <= 0;
        };
    }

    private boolean contains(JsonNode actual) {
        if (actual.isString() && value.isString()) {
            return actual.stringValue().contains(value.stringValue());
        }
        if (actual.isArray()) {
            for (JsonNode element : actual) {
                if (same(element, value)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        return a.equals(b) || (a.isMissingNode() && b.isNull());
    }
}
