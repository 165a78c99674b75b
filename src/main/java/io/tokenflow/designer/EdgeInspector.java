package io.tokenflow.designer;

import java.util.List;

import io.tokenflow.designer.InspectorField.Widget;
import tools.jackson.databind.JsonNode;

/**
 * The inspector of one edge of the draft: where it starts and ends, its label, and its seed-001 condition (which
 * makes it a branch rule of its source node).
 *
 * @param path the edge's pointer, {@code /edges/2}
 */
public record EdgeInspector(String path, String from, String to, List<InspectorField> fields, ConditionView condition) {

    public EdgeInspector {
        fields = List.copyOf(fields);
    }

    static EdgeInspector of(JsonNode document, int index) {
        JsonNode edge = document.path("edges").get(index);
        String path = "/edges/" + index;
        return new EdgeInspector(path, edge.path("from").asString(""), edge.path("to").asString(""),
                List.of(InspectorField.of(edge, path + "/from", "From", Widget.TEXT, "A node id").markedRequired(),
                        InspectorField.of(edge, path + "/to", "To", Widget.TEXT, "A node id").markedRequired(),
                        InspectorField.of(edge, path + "/label", "Label", Widget.TEXT, null)),
                edge.has("condition") ? ConditionView.of(edge.get("condition"), path + "/condition") : null);
    }
}
