package io.tokenflow.engine.compiler;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.HumanDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.types.NodeKind;

/**
 * Human nodes pause the run for an approval: approve follows the node's edges, reject its {@code rejection_path};
 * a timeout applies the escalation policy.
 */
final class HumanNodeCompiler implements NodeKindCompiler {

    @Override
    public NodeKind kind() {
        return NodeKind.HUMAN;
    }

    @Override
    public void check(NodeDefinition node, Diagnostics diagnostics) {
        HumanDefinition human = node.human();
        if (human == null) {
            diagnostics.error("human-settings", node.id(), node.pointer(), "Expected human node '" + node.id()
                    + "' to have human settings with at least one approver, but it has none");
            return;
        }
        if ("escalate".equals(human.escalationPolicy()) && human.escalateTo().isEmpty()) {
            diagnostics.error("human-settings", node.id(), human.pointer() + "/escalate_to", "Expected escalation "
                    + "policy 'escalate' to name who to escalate to in escalate_to, but it names nobody");
        }
        if (human.escalationPolicy() != null && human.timeout() == null) {
            diagnostics.warning("human-settings", node.id(), human.pointer() + "/escalation_policy", "Human node '"
                    + node.id() + "' has an escalation policy but no timeout, so the policy never applies");
        }
        FormChecks.check(node, diagnostics);
        if (node.branch() != null) {
            diagnostics.error("human-branch", node.id(), node.branch().pointer(), "Expected human node '" + node.id()
                    + "' to route by decision (edges on approve, rejection_path on reject), but it has a branch");
        }
        NodeKindCompiler.warnIgnored(node, node.agent(), "agent", "agent", diagnostics);
    }
}
