package io.tokenflow.engine.compiler;

import java.util.List;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.OnFailureDefinition;
import io.tokenflow.engine.dsl.Target;
import io.tokenflow.engine.ir.IrOnFailure;
import io.tokenflow.engine.types.NodeKind;

/** A node's {@code on_failure}: the targets of a {@code path}, and what may not be combined. */
final class OnFailureCompiler {

    /** The IR, or {@code null} when the node has no {@code on_failure} (or one with problems, reported). */
    IrOnFailure compile(NodeDefinition node, NodeKind kind, Diagnostics diagnostics) {
        OnFailureDefinition onFailure = node.onFailure();
        if (onFailure == null) {
            return null;
        }
        if (kind == NodeKind.HUMAN) {
            diagnostics.error("on-failure-on-human-node", node.id(), onFailure.pointer(), "Expected on_failure only on "
                    + "nodes a worker runs, but '" + node.id() + "' is a human node (a reject follows its "
                    + "rejection_path)");
            return null;
        }
        List<String> targets = onFailure.nextNodes().stream().map(Target::nodeId).toList();
        return switch (onFailure.action()) {
            case IrOnFailure.PATH -> {
                if (targets.isEmpty()) {
                    diagnostics.error("on-failure", node.id(), onFailure.pointer() + "/next_nodes", "Expected "
                            + "on_failure.next_nodes to name where the error of '" + node.id() + "' goes, but there "
                            + "are none");
                    yield null;
                }
                yield new IrOnFailure(IrOnFailure.PATH, targets);
            }
            default -> {
                if (!targets.isEmpty()) {
                    diagnostics.error("on-failure", node.id(), onFailure.pointer() + "/next_nodes", "Expected "
                            + "next_nodes only with action 'path', but the action is '" + onFailure.action() + "'");
                    yield null;
                }
                yield new IrOnFailure(onFailure.action(), List.of());
            }
        };
    }
}
