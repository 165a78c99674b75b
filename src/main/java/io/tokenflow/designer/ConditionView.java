package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.designer.InspectorField.Widget;
import tools.jackson.databind.JsonNode;

/**
 * A condition in the inspector: its type, chosen from {@link #TYPES}, and the fields of that type; a composite's
 * conditions nest. A seed-001 edge condition written as a bare CEL string is shown as a CEL condition whose
 * expression is the string itself ({@code shorthand}).
 *
 * @param path the condition's pointer in the draft document
 */
public record ConditionView(String path, String type, List<InspectorField> fields, List<ConditionView> children,
                            boolean shorthand) {

    public static final List<String> TYPES = List.of("cel", "jsonpath", "schema_validation", "cross_node_comparison",
            "composite", "python_sandbox");

    public ConditionView {
        fields = List.copyOf(fields);
        children = List.copyOf(children);
    }

    static ConditionView of(JsonNode condition, String path) {
        if (condition.isString()) {
            return new ConditionView(path, "cel", List.of(new InspectorField(path, "CEL expression", Widget.TEXT,
                    condition.asString(), List.of(), true, "Sees output, ctx.<node>.output and input.")), List.of(), true);
        }
        String type = condition.path("type").asString("cel");
        List<ConditionView> children = new ArrayList<>();
        JsonNode nested = condition.path("conditions");
        for (int i = 0; i < nested.size(); i++) {
            children.add(of(nested.get(i), path + "/conditions/" + i));
        }
        return new ConditionView(path, type, fields(condition, path, type), children, false);
    }

    private static List<InspectorField> fields(JsonNode condition, String path, String type) {
        switch (type) {
            case "cel":
                return List.of(InspectorField.of(condition, path + "/expression", "CEL expression", Widget.TEXT,
                        "Sees output, ctx.<node>.output and input, e.g. output.score >= 80").markedRequired());
            case "jsonpath":
                return List.of(InspectorField.of(condition, path + "/query", "JSONPath query", Widget.TEXT,
                                "e.g. $.items.length()").markedRequired(),
                        InspectorField.of(condition, path + "/operator", "Operator", Widget.TEXT,
                                "==, !=, >, >=, <, <=, exists, contains…").markedRequired(),
                        InspectorField.of(condition, path + "/value", "Value", Widget.JSON, "Any JSON value"));
            case "schema_validation":
                return List.of(InspectorField.of(condition, path + "/schema", "JSON Schema", Widget.JSON,
                                "The output must match it (draft 2020-12)"),
                        InspectorField.of(condition, path + "/invert", "Invert (match when invalid)",
                                Widget.CHECKBOX, null));
            case "cross_node_comparison":
                return List.of(InspectorField.of(condition, path + "/left", "Left", Widget.TEXT,
                                "e.g. ctx.fetch.output.total"),
                        InspectorField.of(condition, path + "/operator", "Operator", Widget.TEXT, "==, !=, >, >=, <, <="),
                        InspectorField.of(condition, path + "/right", "Right", Widget.TEXT, null),
                        InspectorField.of(condition, path + "/expression", "Or a CEL expression", Widget.TEXT, null));
            case "composite":
                return List.of(InspectorField.select(condition, path + "/operator", "Combine with",
                        List.of("AND", "OR", "NOT"), true, null));
            case "python_sandbox":
                return List.of(InspectorField.of(condition, path + "/code", "Python", Widget.TEXTAREA,
                        "An expression over output; runs in the sandbox when enabled"));
            default:
                return List.of();
        }
    }
}
