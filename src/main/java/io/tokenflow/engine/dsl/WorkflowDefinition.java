package io.tokenflow.engine.dsl;

import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;

/**
 * A workflow as authored: nodes and edges, read from the JSON DSL.
 *
 * @param inputs the declared run inputs as a JSON Schema object, or {@code null}
 * @param retry  the retry policy of every node a worker runs that has none of its own, or {@code null}
 * @param deadline the longest a run may run ({@code seconds}, {@code action}), or {@code null}
 */
public record WorkflowDefinition(String name, String description, JsonNode inputs, JsonNode retry, JsonNode deadline,
                                 List<NodeDefinition> nodes, List<EdgeDefinition> edges) {

    public WorkflowDefinition {
        Objects.requireNonNull(name, "name");
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }
}
