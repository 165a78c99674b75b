package io.tokenflow.engine.compiler;

import java.util.List;

import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.Target;

/**
 * Seed 003's terminal-node algorithm: a node is terminal when it has no static dependents and no branch or loop; a
 * branch node when all its paths are empty; a loop node when its break and timeout paths are both empty. Only
 * terminal nodes need to check the token counter for completion.
 */
final class TerminalDetector {

    boolean isTerminal(NodeDefinition node, List<String> dependents) {
        boolean hasBranch = node.branch() != null;
        boolean hasLoop = node.loop() != null;
        if (dependents.isEmpty() && !hasBranch && !hasLoop) {
            return true;
        }
        if (hasBranch) {
            boolean rulesEmpty = node.branch().rules().stream().allMatch(rule -> rule.nextNodes().isEmpty());
            return rulesEmpty && node.branch().defaultPath().isEmpty() && node.branch().availableNextNodes().isEmpty();
        }
        if (hasLoop) {
            List<Target> breakPath = node.loop().breakPath();
            boolean breakEmpty = breakPath == null ? dependents.isEmpty() : breakPath.isEmpty();
            return breakEmpty && node.loop().timeoutPath().isEmpty();
        }
        return false;
    }
}
