package io.tokenflow.engine.compiler;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.types.NodeKind;

/** The checks particular to one kind of node. One implementation per {@link NodeKind}. */
interface NodeKindCompiler {

    NodeKind kind();

    void check(NodeDefinition node, Diagnostics diagnostics);

    static void warnIgnored(NodeDefinition node, Object settings, String member, String kindName, Diagnostics diagnostics) {
        if (settings != null) {
            diagnostics.warning("ignored-settings", node.id(), node.at(member), "Node '" + node.id() + "' has '"
                    + member + "' settings, but only " + kindName + " nodes use them; they are ignored");
        }
    }
}
