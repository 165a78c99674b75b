package io.tokenflow.designer;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The "new workflow" form on the workflows page: a name, an optional description, and what went wrong. */
public record CreateForm(String name, String description, FormProblems problems) {

    /** The document members this form has a field for. */
    static final List<String> FIELDS = List.of("name", "description");

    public CreateForm {
        name = name == null ? "" : name;
        description = description == null ? "" : description;
        problems = problems == null ? FormProblems.none() : problems;
    }

    static CreateForm empty() {
        return new CreateForm("", "", FormProblems.none());
    }

    CreateForm withProblems(FormProblems found) {
        return new CreateForm(name, description, found);
    }

    /** The smallest workflow that compiles: one {@code function} node {@code start} that does nothing. */
    JsonNode document() {
        ObjectNode document = JsonNodeFactory.instance.objectNode();
        document.put("name", name.trim());
        if (!description.isBlank()) {
            document.put("description", description.trim());
        }
        ObjectNode start = document.putArray("nodes").addObject();
        start.put("id", "start");
        start.put("type", "function");
        start.putObject("config").put("function", "noop");
        return document;
    }
}
