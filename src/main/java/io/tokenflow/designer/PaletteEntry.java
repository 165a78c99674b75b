package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.List;

import io.tokenflow.engine.ir.IrCall;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node type in the editor's palette, with the node a drop adds (without its id): the type's required config
 * members filled from their schema defaults (and the settings a human, wait, signal or workflow node needs), so that
 * as few problems as possible are left to fix.
 *
 * @param starter     the JSON of the node a drop adds
 * @param unavailable why the entry cannot be used yet (a workflow node with no other workflow to call), or
 *                    {@code null} when it can
 */
public record PaletteEntry(String type, String displayName, String description, String category, String kind,
                           String starter, String unavailable) {

    static final String NOTHING_TO_CALL = "No other workflow to call yet: create one first, then add this node.";

    /**
     * @param callable the workflow a new workflow node calls at its latest version (the most recently changed other
     *                 one), or {@code null} when there is none
     */
    static List<PaletteEntry> of(List<NodeTypeSpec> types, String user, Workflow callable) {
        List<PaletteEntry> entries = new ArrayList<>();
        types.stream().filter(type -> !"parallel".equals(type.name())).forEach(type -> entries.add(new PaletteEntry(
                type.name(), type.displayName(), type.description(), type.category(), type.kind().label(),
                starter(type, user, callable).toString(),
                IrCall.NODE_TYPE.equals(type.name()) && callable == null ? NOTHING_TO_CALL : null)));
        return entries;
    }

    public boolean usable() {
        return unavailable == null;
    }

    private static ObjectNode starter(NodeTypeSpec type, String user, Workflow callable) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("type", type.name());
        ObjectNode config = node.putObject("config");
        JsonNode properties = type.configSchema().path("properties");
        type.configSchema().path("required").forEach(required -> {
            JsonNode value = initialValue(type.name(), required.asString(), properties.path(required.asString()));
            if (value != null) {
                config.set(required.asString(), value);
            }
        });
        if ("human".equals(type.kind().label())) {
            node.putObject("human").putArray("approvers").add(user == null ? "role:approver" : user);
        }
        if ("wait".equals(type.name())) {
            node.putObject("wait").put("duration", "PT1M");
        }
        if ("signal".equals(type.name())) {
            node.putObject("signal").put("name", "event").put("key", "${workflow.input.id}");
        }
        if (IrCall.NODE_TYPE.equals(type.name()) && callable != null) {
            node.putObject("workflow").put("name", callable.name()).put("version", callable.latestVersion());
        }
        return node;
    }

    /**
     * The schema's default, its first enum value or its minimum; a {@code function} node starts as {@code noop}
     * (the function that does nothing, as a new workflow's start node). {@code null} leaves the member to the user.
     */
    private static JsonNode initialValue(String typeName, String member, JsonNode property) {
        if (property.has("default")) {
            return property.get("default");
        }
        if (property.path("enum").isArray() && !property.path("enum").isEmpty()) {
            return property.path("enum").get(0);
        }
        if ("function".equals(typeName) && "function".equals(member)) {
            return JsonNodeFactory.instance.stringNode("noop");
        }
        if (property.has("minimum") && property.path("type").asString("").matches("integer|number")) {
            return property.get("minimum");
        }
        return null;
    }
}
