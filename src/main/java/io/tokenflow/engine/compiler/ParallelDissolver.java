package io.tokenflow.engine.compiler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.EdgeDefinition;
import io.tokenflow.engine.dsl.HumanDefinition;
import io.tokenflow.engine.dsl.LoopDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.OnFailureDefinition;
import io.tokenflow.engine.dsl.Target;
import io.tokenflow.engine.dsl.WorkflowDefinition;

/**
 * Seed 001's {@code parallel} type is "multiple task nodes with the same dependencies": a parallel node is removed
 * and every path naming it is redirected to its successors.
 */
final class ParallelDissolver {

    private final Map<String, List<Target>> successors = new HashMap<>();

    ParallelDissolver(WorkflowDefinition workflow, Diagnostics diagnostics) {
        for (NodeDefinition node : workflow.nodes()) {
            if (Desugarer.PARALLEL.equals(node.type())) {
                successors.put(node.id(), successorsOf(node, workflow, diagnostics));
            }
        }
    }

    private static List<Target> successorsOf(NodeDefinition node, WorkflowDefinition workflow, Diagnostics diagnostics) {
        if (node.branch() != null || node.loop() != null) {
            diagnostics.error("parallel-routing", node.id(), node.pointer(), "Expected parallel node '" + node.id()
                    + "' to have neither branch nor loop (it is compiled away), but it has one");
        }
        List<Target> targets = new ArrayList<>();
        for (EdgeDefinition edge : workflow.edges()) {
            if (!edge.from().equals(node.id())) {
                continue;
            }
            if (edge.isConditional()) {
                diagnostics.error("parallel-routing", node.id(), edge.pointer() + "/condition", "Expected edges "
                        + "leaving parallel node '" + node.id() + "' to be unconditional, but this one has a condition");
            }
            targets.add(new Target(edge.to(), edge.pointer() + "/to"));
        }
        if (targets.isEmpty()) {
            diagnostics.warning("parallel-empty", node.id(), node.pointer(), "Parallel node '" + node.id()
                    + "' has no outgoing edges, so paths reaching it end there");
        }
        return targets;
    }

    boolean isParallel(String nodeId) {
        return successors.containsKey(nodeId);
    }

    List<Target> expand(Target target) {
        List<Target> expanded = new ArrayList<>();
        expand(target, expanded, new HashSet<>());
        return expanded;
    }

    private void expand(Target target, List<Target> into, Set<String> visited) {
        List<Target> next = successors.get(target.nodeId());
        if (next == null) {
            into.add(target);
        } else if (visited.add(target.nodeId())) {
            next.forEach(successor -> expand(successor, into, visited));
        }
    }

    List<Target> expandAll(List<Target> targets) {
        List<Target> expanded = new ArrayList<>();
        targets.forEach(target -> expanded.addAll(expand(target)));
        return expanded;
    }

    NodeDefinition expandTargets(NodeDefinition node) {
        if (successors.isEmpty()) {
            return node;
        }
        NodeDefinition result = node;
        if (node.branch() != null) {
            result = result.withBranch(expand(node.branch()));
        }
        if (node.loop() != null) {
            LoopDefinition loop = node.loop();
            List<Target> breakPath = loop.breakPath() == null ? null : expandAll(loop.breakPath());
            result = result.withLoop(new LoopDefinition(loop.pointer(), loop.condition(), loop.maxIterations(),
                    loop.loopBackTo(), breakPath, expandAll(loop.timeoutPath())));
        }
        if (node.human() != null) {
            HumanDefinition human = node.human();
            result = new NodeDefinition(result.pointer(), result.id(), result.type(), result.name(), result.config(),
                    result.input(), result.branch(), result.loop(), result.waitForAll(), result.retry(),
                    result.limits(), new HumanDefinition(human.pointer(), human.title(), human.instructions(),
                    human.approvers(), human.timeout(), human.escalationPolicy(), human.escalateTo(),
                    expandAll(human.rejectionPath()), human.form()), result.agent(), result.onFailure(), result.timeoutS(),
                    result.timer(), result.signal(), result.map(), result.call());
        }
        if (node.onFailure() != null) {
            OnFailureDefinition onFailure = node.onFailure();
            result = result.withOnFailure(new OnFailureDefinition(onFailure.pointer(), onFailure.action(),
                    expandAll(onFailure.nextNodes())));
        }
        return result;
    }

    private BranchDefinition expand(BranchDefinition branch) {
        List<BranchDefinition.Rule> rules = branch.rules().stream()
                .map(rule -> new BranchDefinition.Rule(rule.pointer(), rule.name(), rule.condition(),
                        expandAll(rule.nextNodes())))
                .toList();
        return new BranchDefinition(branch.pointer(), branch.type(), rules, expandAll(branch.defaultPath()),
                expandAll(branch.availableNextNodes()));
    }
}
