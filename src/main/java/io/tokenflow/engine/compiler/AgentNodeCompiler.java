package io.tokenflow.engine.compiler;

import io.tokenflow.engine.dsl.BranchDefinition;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.types.NodeKind;

/** Agent nodes call an LLM; an agent-driven branch lets it choose among an allow-list of next nodes. */
final class AgentNodeCompiler implements NodeKindCompiler {

    @Override
    public NodeKind kind() {
        return NodeKind.AGENT;
    }

    @Override
    public void check(NodeDefinition node, Diagnostics diagnostics) {
        BranchDefinition branch = node.branch();
        if (branch != null && BranchDefinition.AGENT_DRIVEN.equals(branch.type())) {
            if (branch.availableNextNodes().isEmpty()) {
                diagnostics.error("agent-branch", node.id(), branch.pointer(), "Expected an agent_driven branch to "
                        + "list the nodes the agent may choose in available_next_nodes, but it lists none");
            }
            if (!branch.rules().isEmpty()) {
                diagnostics.error("agent-branch", node.id(), branch.pointer() + "/rules", "Expected an agent_driven "
                        + "branch to leave the choice to the agent, but it also has rules; use type conditional for rules");
            }
        }
        NodeKindCompiler.warnIgnored(node, node.human(), "human", "human", diagnostics);
    }
}
