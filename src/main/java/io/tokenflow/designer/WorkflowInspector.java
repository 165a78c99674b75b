package io.tokenflow.designer;

import java.util.List;

import io.tokenflow.designer.InspectorField.Widget;
import tools.jackson.databind.JsonNode;

/**
 * The inspector when nothing is selected: the workflow's name, description and declared inputs, and its triggers.
 */
public record WorkflowInspector(List<InspectorField> fields, List<InspectorField> triggers, int nodes, int edges) {

    private static final String TRIGGERS_HINT = "A list: {\"id\": \"nightly\", \"type\": \"cron\", \"cron\": "
            + "\"0 0 2 * * *\", \"time_zone\": \"Europe/Berlin\", \"missed\": \"skip\" | \"fire_once\", "
            + "\"inputs\": {…}} or {\"id\": \"orders\", \"type\": \"webhook\", \"auth\": \"secret\" | \"hmac\"}; "
            + "the newest saved version's triggers start it";

    public WorkflowInspector {
        fields = List.copyOf(fields);
        triggers = List.copyOf(triggers);
    }

    static WorkflowInspector of(JsonNode document) {
        return new WorkflowInspector(List.of(
                InspectorField.of(document, "/name", "Workflow name", Widget.TEXT, "Unique").markedRequired(),
                InspectorField.of(document, "/description", "Description", Widget.TEXTAREA, null),
                InspectorField.of(document, "/inputs", "Declared inputs", Widget.JSON,
                        "A JSON Schema of an object, e.g. {\"type\": \"object\", \"properties\": {\"amount\": "
                                + "{\"type\": \"number\"}}, \"required\": [\"amount\"]}; the run form is made from it")),
                List.of(InspectorField.of(document, "/triggers", "Triggers", Widget.JSON, TRIGGERS_HINT)),
                document.path("nodes").size(), document.path("edges").size());
    }
}
