package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.ir.IrLoop;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;

/**
 * The read-only graph a run page draws: the pinned version's nodes and every edge a token can travel (static edges,
 * branch targets, loop-backs and loop exits).
 */
record RunGraph(List<Node> nodes, List<Edge> edges) {

    RunGraph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    static RunGraph of(WorkflowIr ir) {
        List<Node> nodes = new ArrayList<>();
        Map<String, Edge> edges = new LinkedHashMap<>();
        for (IrNode node : ir.nodes().values()) {
            nodes.add(new Node(node.id(), node.name() == null || node.name().isBlank() ? node.id() : node.name(),
                    node.nodeType() == null ? node.type() : node.nodeType(), node.type()));
            node.dependents().forEach(target -> put(edges, new Edge(node.id(), target, "static")));
            if (node.branch() != null) {
                node.branch().allTargets().forEach(target -> put(edges, new Edge(node.id(), target, "branch")));
            }
            IrLoop loop = node.loop();
            if (loop != null) {
                put(edges, new Edge(node.id(), loop.loopBackTo(), "loop"));
                loop.breakPath().forEach(target -> put(edges, new Edge(node.id(), target, "static")));
                loop.timeoutPath().forEach(target -> put(edges, new Edge(node.id(), target, "static")));
            }
        }
        return new RunGraph(nodes, List.copyOf(edges.values()));
    }

    /** One edge per pair of nodes: the first kind found wins (static before branch before loop). */
    private static void put(Map<String, Edge> edges, Edge edge) {
        edges.putIfAbsent(edge.from() + "\u2192" + edge.to(), edge);
    }

    /** A node: {@code kind} as authored (e.g. {@code conditional}), {@code type} as executed (task, agent, human). */
    record Node(String id, String label, String kind, String type) {
    }

    /** An edge tokens may travel; {@code kind} is {@code static}, {@code branch} or {@code loop}. */
    record Edge(String from, String to, String kind) {
    }
}
