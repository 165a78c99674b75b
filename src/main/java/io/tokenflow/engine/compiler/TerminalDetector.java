package io.tokenflow.engine.compiler;

import java.util.List;
import java.util.Set;

import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;

/**
 * Seed 003's terminal-node algorithm: a node is terminal when it has no static dependents and no branch or loop; a
 * branch node when all its paths are empty; a loop node when its break and timeout paths are both empty. Only
 * terminal nodes need to check the token counter for completion. Targets that name no node (already reported) do not
 * count as paths.
 */
final class TerminalDetector {

    boolean isTerminal(NodeDefinition node, List<String> dependents, Set<String> nodeIds) {
        boolean hasBranch = node.branch() != null;
        boolean hasLoop = node.loop() != null;
        if (dependents.isEmpty() && !hasBranch && !hasLoop) {
            return true;
        }
        if (hasBranch) {
            boolean rulesEmpty = node.branch().rules().stream().allMatch(rule -> none(rule.nextNodes(), nodeIds));
            return rulesEmpty && none(node.branch().defaultPath(), nodeIds)
                    && none(node.branch().availableNextNodes(), nodeIds);
        }
        if (hasLoop) {
            List<Target> breakPath = node.loop().breakPath();
            boolean breakEmpty = breakPath == null ? dependents.isEmpty() : none(breakPath, nodeIds);
            return breakEmpty && none(node.loop().timeoutPath(), nodeIds);
        }
        return false;
    }

    private static boolean none(List<Target> targets, Set<String> nodeIds) {
        return targets.stream().noneMatch(target -> nodeIds.contains(target.nodeId()));
    }
}
