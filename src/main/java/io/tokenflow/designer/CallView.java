package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.designer.InspectorField.Widget;
import tools.jackson.databind.JsonNode;

/**
 * The inspector's Sub-workflow section of a workflow node: which workflow it calls (one of the other workflows'
 * names, or an id) at which version or tag, and a link to the called workflow's page.
 *
 * @param workflow the called workflow's id or name as written, or {@code null} when it names none yet
 */
public record CallView(String path, List<InspectorField> fields, String workflow) {

    public CallView {
        fields = List.copyOf(fields);
    }

    /** @param names the names a call may choose from (the other workflows'); a name written already stays a choice */
    static CallView of(JsonNode call, String path, List<String> names) {
        String name = call.path("name").asString("");
        List<String> choices = new ArrayList<>(names);
        if (!name.isEmpty() && !choices.contains(name)) {
            choices.add(0, name);
        }
        String id = call.path("id").asString("");
        return new CallView(path, List.of(
                InspectorField.select(call, path + "/name", "Workflow", choices, false,
                        "The workflow this node runs as a child run; or give its id below"),
                InspectorField.of(call, path + "/id", "Or its id", Widget.TEXT, "A workflow's id, instead of its name"),
                InspectorField.of(call, path + "/version", "Version", Widget.INTEGER,
                        "A version number; or a tag below"),
                InspectorField.of(call, path + "/tag", "Or tag", Widget.TEXT,
                        "Resolved when the child run starts, e.g. prod")),
                !id.isEmpty() ? id : name.isEmpty() ? null : name);
    }
}
