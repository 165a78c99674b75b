package io.tokenflow.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An agent's routing choice, sent as a completion's {@code decision}. The worker passes on what the agent chose; the
 * coordinator keeps only nodes of the branch's {@code available_next_nodes} and takes its {@code default} otherwise.
 */
public record Decision(List<String> nextNodes, String reasoning) {

    public Decision {
        nextNodes = List.copyOf(nextNodes);
        reasoning = Objects.requireNonNullElse(reasoning, "");
    }

    /** {@code {"next_nodes": [...], "reasoning": "..."}} */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        nextNodes.forEach(json.putArray("next_nodes")::add);
        json.put("reasoning", reasoning);
        return json;
    }

    /** A decision from an object with {@code next_nodes} (a list of node ids, or one id) and {@code reasoning}. */
    public static Optional<Decision> from(JsonNode json) {
        if (json == null || !json.isObject() || !json.has("next_nodes")) {
            return Optional.empty();
        }
        JsonNode next = json.get("next_nodes");
        List<String> nodes = new ArrayList<>();
        if (next.isString()) {
            nodes.add(next.stringValue());
        } else if (next.isArray()) {
            next.values().forEach(node -> nodes.add(node.isString() ? node.stringValue() : node.toString()));
        } else {
            return Optional.empty();
        }
        JsonNode reasoning = json.path("reasoning");
        return Optional.of(new Decision(nodes, reasoning.isString() ? reasoning.stringValue() : ""));
    }
}
