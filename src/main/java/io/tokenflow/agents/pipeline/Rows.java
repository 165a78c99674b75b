package io.tokenflow.agents.pipeline;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.MissingNode;

/**
 * Tables as the primitives see them: a JSON array of rows (objects), or an object holding one under {@code items}
 * (the shape the data workers produce). Fields are dotted paths into a row.
 */
final class Rows {

    private Rows() {
    }

    static List<JsonNode> of(JsonNode data) throws PipelineException {
        JsonNode rows = data.isObject() && data.path("items").isArray() ? data.get("items") : data;
        if (!rows.isArray()) {
            throw new PipelineException("Expected a table (a list of rows, or {\"items\": [...]}), but the data "
                    + "is " + kind(data));
        }
        List<JsonNode> list = new ArrayList<>(rows.size());
        rows.values().forEach(list::add);
        return list;
    }

    static JsonNode field(JsonNode row, String path) {
        JsonNode current = row;
        for (String part : path.split("\\.", -1)) {
            if (current == null || !current.isObject()) {
                return MissingNode.getInstance();
            }
            current = current.get(part);
        }
        return current == null ? MissingNode.getInstance() : current;
    }

    /** A required, non-blank string member of a step. */
    static String text(JsonNode step, String member) throws PipelineException {
        JsonNode value = step.path(member);
        if (!value.isString() || value.stringValue().isBlank()) {
            throw new PipelineException("Expected \"" + member + "\" to be a non-empty string, but found "
                    + (value.isMissingNode() ? "none" : value));
        }
        return value.stringValue();
    }

    /** An optional string member, or {@code fallback}. */
    static String text(JsonNode step, String member, String fallback) throws PipelineException {
        return step.path(member).isMissingNode() || step.path(member).isNull() ? fallback : text(step, member);
    }

    /**
     * Orders values as a sort should: numbers numerically, strings lexicographically, booleans false first;
     * missing and null values after everything else; values of different kinds by kind.
     */
    static int compare(JsonNode a, JsonNode b) {
        boolean aAbsent = a == null || a.isMissingNode() || a.isNull();
        boolean bAbsent = b == null || b.isMissingNode() || b.isNull();
        if (aAbsent || bAbsent) {
            return Boolean.compare(aAbsent, bAbsent);
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        if (a.isString() && b.isString()) {
            return a.stringValue().compareTo(b.stringValue());
        }
        if (a.isBoolean() && b.isBoolean()) {
            return Boolean.compare(a.booleanValue(), b.booleanValue());
        }
        int byKind = a.getNodeType().compareTo(b.getNodeType());
        return byKind != 0 ? byKind : a.toString().compareTo(b.toString());
    }

    static String kind(JsonNode value) {
        return value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
