package io.tokenflow.engine.compiler;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.EdgeDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;
import io.tokenflow.engine.dsl.WorkflowDefinition;

/** Every node id named by an edge, branch, loop or rejection path must be a node of the workflow. */
final class TargetChecks {

    void checkEdges(WorkflowDefinition workflow, Diagnostics diagnostics) {
        Set<String> ids = new HashSet<>();
        workflow.nodes().forEach(node -> ids.add(node.id()));
        for (EdgeDefinition edge : workflow.edges()) {
            if (!ids.contains(edge.from())) {
                diagnostics.error("unknown-node", null, edge.pointer() + "/from", "Expected the edge to start at a "
                        + "node of this workflow, but there is no node '" + edge.from() + "'");
            }
            if (!ids.contains(edge.to())) {
                diagnostics.error("unknown-node", ids.contains(edge.from()) ? edge.from() : null, edge.pointer() + "/to",
                        "Expected the edge from '" + edge.from() + "' to lead to a node of this workflow, but there is "
                                + "no node '" + edge.to() + "'");
            }
        }
    }

    void checkPaths(DesugaredWorkflow workflow, Diagnostics diagnostics) {
        for (NodeDefinition node : workflow.nodes().values()) {
            if (node.branch() != null) {
                node.branch().rules().forEach(rule -> check(node, rule.nextNodes(), "a branch rule", workflow, diagnostics));
                check(node, node.branch().defaultPath(), "the branch default", workflow, diagnostics);
                check(node, node.branch().availableNextNodes(), "available_next_nodes", workflow, diagnostics);
            }
            if (node.loop() != null) {
                if (node.loop().loopBackTo() != null) {
                    check(node, List.of(node.loop().loopBackTo()), "loop_back_to", workflow, diagnostics);
                }
                if (node.loop().breakPath() != null) {
                    check(node, node.loop().breakPath(), "the loop's break_path", workflow, diagnostics);
                }
                check(node, node.loop().timeoutPath(), "the loop's timeout_path", workflow, diagnostics);
            }
            if (node.human() != null) {
                check(node, node.human().rejectionPath(), "rejection_path", workflow, diagnostics);
            }
            if (node.onFailure() != null) {
                check(node, node.onFailure().nextNodes(), "on_failure.next_nodes", workflow, diagnostics);
            }
        }
    }

    private static void check(NodeDefinition node, List<Target> targets, String what, DesugaredWorkflow workflow,
                              Diagnostics diagnostics) {
        for (Target target : targets) {
            if (!workflow.nodeIds().contains(target.nodeId())) {
                diagnostics.error("unknown-node", node.id(), target.pointer(), "Expected " + what + " of '" + node.id()
                        + "' to name a node of this workflow, but there is no node '" + target.nodeId() + "'");
            }
        }
    }
}
