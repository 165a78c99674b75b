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
 * @param compensation when compensators run by themselves ({@code on}), or {@code null}
 * @param compensators each node's {@code compensate}, in authoring order
 */
public record WorkflowDefinition(String name, String description, JsonNode inputs, JsonNode retry, JsonNode deadline,
                                 JsonNode compensation, List<CompensatorDefinition> compensators,
                                 List<NodeDefinition> nodes, List<EdgeDefinition> edges) {

    public WorkflowDefinition {
        Objects.requireNonNull(name, "name");
        compensators = List.copyOf(compensators);
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }
}
