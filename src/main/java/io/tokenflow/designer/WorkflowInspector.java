package io.tokenflow.designer;

import java.util.List;

import io.tokenflow.designer.InspectorField.Widget;
import tools.jackson.databind.JsonNode;

/** The inspector when nothing is selected: the workflow's name, description and declared inputs. */
public record WorkflowInspector(List<InspectorField> fields, int nodes, int edges) {

    public WorkflowInspector {
        fields = List.copyOf(fields);
    }

    static WorkflowInspector of(JsonNode document) {
        return new WorkflowInspector(List.of(
                InspectorField.of(document, "/name", "Workflow name", Widget.TEXT, "Unique").markedRequired(),
                InspectorField.of(document, "/description", "Description", Widget.TEXTAREA, null),
                InspectorField.of(document, "/inputs", "Declared inputs", Widget.JSON,
                        "A JSON Schema of an object, e.g. {\"type\": \"object\", \"properties\": {\"amount\": "
                                + "{\"type\": \"number\"}}, \"required\": [\"amount\"]}; the run form is made from it")),
                document.path("nodes").size(), document.path("edges").size());
    }
}
