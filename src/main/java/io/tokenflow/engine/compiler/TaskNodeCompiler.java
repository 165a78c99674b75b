package io.tokenflow.engine.compiler;

import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.types.NodeKind;

/** Task nodes are run by workers; their routing is static edges, rule-based branches and loops. */
final class TaskNodeCompiler implements NodeKindCompiler {

    @Override
    public NodeKind kind() {
        return NodeKind.TASK;
    }

    @Override
    public void check(NodeDefinition node, Diagnostics diagnostics) {
        if (node.branch() != null && BranchDefinition.AGENT_DRIVEN.equals(node.branch().type())) {
            diagnostics.error("agent-branch", node.id(), node.branch().pointer() + "/type", "Expected an "
                    + "agent_driven branch only on an agent node, but '" + node.id() + "' is a '" + node.type() + "' node");
        }
        NodeKindCompiler.warnIgnored(node, node.human(), "human", "human", diagnostics);
        NodeKindCompiler.warnIgnored(node, node.agent(), "agent", "agent", diagnostics);
    }
}
