package io.tokenflow.engine.compiler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;

/**
 * Every way a token can travel between nodes: static edges, branch paths, loop exits and rejection paths
 * ("forward" edges), plus the declared loop-backs, which are kept apart so that a declared loop is not a cycle.
 */
final class RoutingGraph {

    private final Map<String, Set<String>> forward = new LinkedHashMap<>();
    private final Map<String, Set<String>> backward = new LinkedHashMap<>();
    private final Map<String, String> loopBacks = new HashMap<>();

    private RoutingGraph(Collection<String> nodeIds) {
        nodeIds.forEach(id -> {
            forward.put(id, new LinkedHashSet<>());
            backward.put(id, new LinkedHashSet<>());
        });
    }

    static RoutingGraph of(DesugaredWorkflow workflow) {
        RoutingGraph graph = new RoutingGraph(workflow.nodeIds());
        for (NodeDefinition node : workflow.nodes().values()) {
            for (Target target : forwardTargets(node, workflow)) {
                graph.link(node.id(), target.nodeId());
            }
            if (node.loop() != null) {
                String back = node.loop().loopBackTo() == null ? node.id() : node.loop().loopBackTo().nodeId();
                graph.loopBacks.put(node.id(), back);
            }
        }
        return graph;
    }

    /** The targets a node may emit to, except its loop-back. */
    static List<Target> forwardTargets(NodeDefinition node, DesugaredWorkflow workflow) {
        List<Target> targets = new ArrayList<>(staticTargets(node, workflow));
        if (node.branch() != null) {
            targets.clear();
            node.branch().rules().forEach(rule -> targets.addAll(rule.nextNodes()));
            targets.addAll(node.branch().defaultPath());
            targets.addAll(node.branch().availableNextNodes());
        }
        if (node.loop() != null) {
            if (node.loop().breakPath() != null) {
                targets.addAll(node.loop().breakPath());
            }
            targets.addAll(node.loop().timeoutPath());
        }
        if (node.human() != null) {
            targets.addAll(node.human().rejectionPath());
        }
        if (node.onFailure() != null) {
            targets.addAll(node.onFailure().nextNodes());
        }
        return targets;
    }

    static List<Target> staticTargets(NodeDefinition node, DesugaredWorkflow workflow) {
        return workflow.edgesFrom(node.id()).stream().map(StaticEdge::to).toList();
    }

    private void link(String from, String to) {
        if (forward.containsKey(to)) {
            forward.get(from).add(to);
            backward.get(to).add(from);
        }
    }

    Set<String> successors(String nodeId) {
        return forward.get(nodeId);
    }

    Set<String> predecessors(String nodeId) {
        return backward.get(nodeId);
    }

    Map<String, String> loopBacks() {
        return loopBacks;
    }

    List<String> entryNodes() {
        return forward.keySet().stream().filter(id -> backward.get(id).isEmpty()).toList();
    }

    Set<String> reachableFrom(Collection<String> starts) {
        Set<String> seen = new LinkedHashSet<>(starts);
        Deque<String> queue = new ArrayDeque<>(starts);
        while (!queue.isEmpty()) {
            for (String next : forward.get(queue.poll())) {
                if (seen.add(next)) {
                    queue.add(next);
                }
            }
        }
        return seen;
    }

    /** Whether {@code from} can reach {@code to} along forward edges (a node reaches itself). */
    boolean reaches(String from, String to) {
        return from.equals(to) || reachableFrom(List.of(from)).contains(to);
    }

    /** Each strongly connected component that is a cycle, as a closed path in authoring order. */
    List<List<String>> cycles() {
        return new CycleFinder(forward).cycles();
    }
}
