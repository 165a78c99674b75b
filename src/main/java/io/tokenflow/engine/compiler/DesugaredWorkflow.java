package io.tokenflow.engine.compiler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.WorkflowDefinition;

/**
 * The workflow with seed-001 forms resolved: edge conditions became branch rules, {@code loop} nodes carry a loop
 * config, {@code parallel} nodes are gone, and every remaining edge is unconditional.
 */
record DesugaredWorkflow(WorkflowDefinition source, Map<String, NodeDefinition> nodes, List<StaticEdge> edges) {

    DesugaredWorkflow {
        nodes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
        edges = List.copyOf(edges);
    }

    Set<String> nodeIds() {
        return nodes.keySet();
    }

    List<StaticEdge> edgesFrom(String nodeId) {
        return edges.stream().filter(edge -> edge.from().equals(nodeId)).toList();
    }
}
