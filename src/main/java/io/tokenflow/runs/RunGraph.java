package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.ir.IrLoop;
import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.JsonNode;

/**
 * The read-only graph a run page draws: the nodes of the revision the run follows (with the designer's positions and
 * the nodes patches added), every edge a token can travel (static edges, branch targets, loop-backs and loop exits,
 * rejection paths), and which of them tokens travelled so far.
 */
record RunGraph(int revision, List<Node> nodes, List<Edge> edges) {

    RunGraph {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    static RunGraph of(RunWorkflowRevisions.Revision revision, List<LiveEvent> seen) {
        Map<String, JsonNode> ui = positions(revision.definition());
        Set<String> travelled = travelled(seen);
        List<Node> nodes = new ArrayList<>();
        Map<String, Edge> edges = new LinkedHashMap<>();
        for (IrNode node : revision.ir().nodes().values()) {
            JsonNode at = ui.get(node.id());
            nodes.add(new Node(node.id(), RunPictures.label(node), node.nodeType() == null ? node.type()
                    : node.nodeType(), node.type(), at == null ? null : at.path("x").asDouble(),
                    at == null ? null : at.path("y").asDouble(), revision.added().contains(node.id())));
            edgesOf(node).forEach((to, kind) -> edges.putIfAbsent(node.id() + "\u2192" + to,
                    new Edge(node.id(), to, kind, travelled.contains(node.id() + "\u2192" + to))));
        }
        return new RunGraph(revision.number(), nodes, List.copyOf(edges.values()));
    }

    /** One edge per target: the first kind found wins (static before branch, loop and rejection). */
    private static Map<String, String> edgesOf(IrNode node) {
        Map<String, String> targets = new LinkedHashMap<>();
        node.dependents().forEach(target -> targets.putIfAbsent(target, "static"));
        if (node.branch() != null) {
            node.branch().allTargets().forEach(target -> targets.putIfAbsent(target, "branch"));
        }
        IrLoop loop = node.loop();
        if (loop != null) {
            targets.putIfAbsent(loop.loopBackTo(), "loop");
            loop.breakPath().forEach(target -> targets.putIfAbsent(target, "static"));
            loop.timeoutPath().forEach(target -> targets.putIfAbsent(target, "static"));
        }
        if (node.human() != null) {
            node.human().rejectionPath().forEach(target -> targets.putIfAbsent(target, "rejection"));
        }
        return targets;
    }

    /** The edges a token went along: its emission (or its arrival at a join) names where it came from. */
    private static Set<String> travelled(List<LiveEvent> seen) {
        Set<String> travelled = new HashSet<>();
        for (LiveEvent event : seen) {
            if (("token.emitted".equals(event.type()) || "join.arrived".equals(event.type()))
                    && event.dataText("from") != null && event.node() != null) {
                travelled.add(event.dataText("from") + "\u2192" + event.node());
            }
        }
        return travelled;
    }

    /** The designer's saved positions ({@code ui.x}, {@code ui.y}) by node id. */
    private static Map<String, JsonNode> positions(JsonNode definition) {
        Map<String, JsonNode> positions = new HashMap<>();
        if (definition == null) {
            return positions;
        }
        for (JsonNode node : definition.path("nodes")) {
            JsonNode ui = node.path("ui");
            if (ui.path("x").isNumber() && ui.path("y").isNumber() && node.path("id").isString()) {
                positions.put(node.path("id").asString(), ui);
            }
        }
        return positions;
    }

    /**
     * A node: {@code kind} as authored (e.g. {@code conditional}), {@code type} as executed (task, agent, human);
     * {@code x}, {@code y} where the designer placed it, else {@code null}; {@code added} by a patch of the run.
     */
    record Node(String id, String label, String kind, String type, Double x, Double y, boolean added) {
    }

    /** An edge tokens may travel; {@code kind} is {@code static}, {@code branch}, {@code loop} or {@code rejection}. */
    record Edge(String from, String to, String kind, boolean travelled) {
    }
}
