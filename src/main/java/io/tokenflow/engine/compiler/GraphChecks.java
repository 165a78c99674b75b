package io.tokenflow.engine.compiler;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;

/**
 * Whole-graph rules: there is an entry node, every node is reachable, the only cycles are declared loops (whose
 * {@code loop_back_to} is the node itself or a node before it), and plain edges of routed nodes are on their paths.
 */
final class GraphChecks {

    void check(DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        checkEntryAndReachability(workflow, graph, diagnostics);
        checkCycles(workflow, graph, diagnostics);
        checkLoopBacks(workflow, graph, diagnostics);
        checkPlainEdgesOfRoutedNodes(workflow, diagnostics);
    }

    private static void checkEntryAndReachability(DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        List<String> entries = graph.entryNodes();
        if (entries.isEmpty()) {
            diagnostics.error("no-entry", null, "/nodes", "Expected at least one entry node (a node no edge leads "
                    + "to), but every node has an incoming edge");
            return;
        }
        Set<String> reachable = graph.reachableFrom(entries);
        for (NodeDefinition node : workflow.nodes().values()) {
            if (!reachable.contains(node.id())) {
                diagnostics.error("unreachable", node.id(), node.pointer(), "Expected node '" + node.id()
                        + "' to be reachable from an entry node " + entries + ", but no path leads to it");
            }
        }
    }

    private static void checkCycles(DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        for (List<String> cycle : graph.cycles()) {
            String first = cycle.get(0);
            String last = cycle.get(cycle.size() - 2);
            diagnostics.error("cycle", first, workflow.nodes().get(first).pointer(), "Expected the only cycles to be "
                    + "declared loops, but " + String.join(" → ", cycle) + " is a cycle; give '" + last
                    + "' a loop with loop_back_to '" + first + "', or remove an edge");
        }
    }

    private static void checkLoopBacks(DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        graph.loopBacks().forEach((nodeId, back) -> {
            NodeDefinition node = workflow.nodes().get(nodeId);
            if (workflow.nodeIds().contains(back) && !graph.reaches(back, nodeId)) {
                String pointer = node.loop().loopBackTo() == null ? node.loop().pointer()
                        : node.loop().loopBackTo().pointer();
                diagnostics.error("loop-target", nodeId, pointer, "Expected loop_back_to of '" + nodeId + "' to be '"
                        + nodeId + "' itself or a node before it, but no path leads from '" + back + "' to '"
                        + nodeId + "'");
            }
        });
    }

    private static void checkPlainEdgesOfRoutedNodes(DesugaredWorkflow workflow, Diagnostics diagnostics) {
        for (NodeDefinition node : workflow.nodes().values()) {
            Set<String> allowed = allowedTargetsOfPlainEdges(node);
            if (allowed == null) {
                continue;
            }
            for (Target target : RoutingGraph.staticTargets(node, workflow)) {
                if (!allowed.contains(target.nodeId())) {
                    diagnostics.error("unrouted-edge", node.id(), target.pointer(), "Expected the edge from '"
                            + node.id() + "' to '" + target.nodeId() + "' to be one of its " + routingName(node)
                            + ", but it is on none; add '" + target.nodeId() + "' to one, or remove the edge");
                }
            }
        }
    }

    /** For nodes whose routing is configured, the targets a drawn edge may have; {@code null} if unrestricted. */
    private static Set<String> allowedTargetsOfPlainEdges(NodeDefinition node) {
        if (node.branch() != null) {
            Set<String> allowed = node.branch().defaultPath().stream().map(Target::nodeId).collect(Collectors.toSet());
            node.branch().rules().forEach(rule -> rule.nextNodes().forEach(t -> allowed.add(t.nodeId())));
            node.branch().availableNextNodes().forEach(t -> allowed.add(t.nodeId()));
            addLoopAndRejectionPaths(node, allowed);
            return allowed;
        }
        if (node.loop() != null && node.loop().breakPath() != null) {
            Set<String> allowed = new java.util.HashSet<>();
            addLoopAndRejectionPaths(node, allowed);
            return allowed;
        }
        return null;
    }

    private static void addLoopAndRejectionPaths(NodeDefinition node, Set<String> allowed) {
        if (node.loop() != null) {
            if (node.loop().breakPath() != null) {
                node.loop().breakPath().forEach(t -> allowed.add(t.nodeId()));
            }
            node.loop().timeoutPath().forEach(t -> allowed.add(t.nodeId()));
        }
    }

    private static String routingName(NodeDefinition node) {
        return node.branch() != null ? "branch paths (rules, default or available_next_nodes)"
                : "loop paths (break_path or timeout_path)";
    }
}
