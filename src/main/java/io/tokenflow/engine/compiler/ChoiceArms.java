package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;

/**
 * The choices a node's completion makes between the nodes it may send tokens to: each arm is the set of nodes that
 * get a token when that arm is taken. A node with one arm (plain edges, a fan-out) makes no choice; a branch (each
 * rule, the default; each node an agent may pick), a loop (break, timeout), a human node (approve, reject) and a node
 * whose failure takes an error path make one.
 */
final class ChoiceArms {

    private ChoiceArms() {
    }

    static List<Set<String>> of(NodeDefinition node, DesugaredWorkflow workflow) {
        List<Set<String>> arms = new ArrayList<>();
        if (node.branch() != null) {
            BranchDefinition branch = node.branch();
            branch.rules().forEach(rule -> add(arms, rule.nextNodes()));
            add(arms, branch.defaultPath());
            branch.availableNextNodes().forEach(target -> add(arms, List.of(target)));
        } else if (node.loop() != null) {
            add(arms, node.loop().breakPath() == null ? RoutingGraph.staticTargets(node, workflow)
                    : node.loop().breakPath());
            add(arms, node.loop().timeoutPath());
        } else {
            add(arms, RoutingGraph.staticTargets(node, workflow));
            if (node.human() != null) {
                add(arms, node.human().rejectionPath());
            }
        }
        if (node.onFailure() != null) {
            add(arms, node.onFailure().nextNodes());
        }
        return arms;
    }

    private static void add(List<Set<String>> arms, List<Target> targets) {
        Set<String> arm = new LinkedHashSet<>();
        targets.forEach(target -> arm.add(target.nodeId()));
        if (!arm.isEmpty() && !arms.contains(arm)) {
            arms.add(arm);
        }
    }
}
