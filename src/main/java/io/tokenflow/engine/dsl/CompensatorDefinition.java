package io.tokenflow.engine.dsl;

import java.util.Objects;

import tools.jackson.databind.node.ObjectNode;

/**
 * A node's {@code compensate} as authored: the task that undoes its completed work.
 *
 * @param pointer the JSON pointer of the {@code compensate} object
 * @param node    the id of the node it compensates
 * @param type    the node type that runs it (a worker's)
 * @param config  its config (an empty object when none is given)
 */
public record CompensatorDefinition(String pointer, String node, String type, ObjectNode config) {

    public CompensatorDefinition {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(config, "config");
    }
}
