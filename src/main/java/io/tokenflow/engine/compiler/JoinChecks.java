package io.tokenflow.engine.compiler;

import java.util.List;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;

/** Warns about fan-in that is probably not what the author meant. */
final class JoinChecks {

    void check(NodeDefinition node, List<String> dependencies, DesugaredWorkflow workflow, Diagnostics diagnostics) {
        boolean waitForAll = Boolean.TRUE.equals(node.waitForAll());
        if (waitForAll && dependencies.size() < 2) {
            diagnostics.warning("join-single", node.id(), node.at("wait_for_all"), "Node '" + node.id() + "' waits for "
                    + "all of its dependencies, but it has " + dependencies.size() + "; wait_for_all has no effect");
        }
        if (node.waitForAll() == null && dependencies.size() >= 2) {
            diagnostics.warning("fan-in-without-join", node.id(), node.pointer(), "Node '" + node.id() + "' has "
                    + dependencies.size() + " incoming paths " + dependencies + " but wait_for_all is not set: it "
                    + "runs once per arriving token; set wait_for_all to true to run it once with all outputs");
        }
        if (waitForAll) {
            for (String dependency : dependencies) {
                NodeDefinition source = workflow.nodes().get(dependency);
                if (source != null && (source.branch() != null || source.loop() != null || source.human() != null)) {
                    diagnostics.warning("conditional-join", node.id(), node.at("wait_for_all"), "Node '" + node.id()
                            + "' waits for '" + dependency + "', which reaches it only on some of its paths; the run "
                            + "waits at '" + node.id() + "' until the timeout if '" + dependency + "' goes elsewhere");
                }
            }
        }
    }
}
