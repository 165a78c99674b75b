package io.tokenflow.engine.compiler;

import java.util.List;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.ir.IrLimits;
import tools.jackson.databind.JsonNode;

/**
 * A node's {@code limits}: {@code max_hops} and {@code max_fan_out} take effect (the coordinator enforces them),
 * {@code deadline_s} is refused, since a task's time limit is {@code timeout_s} and a second name for it would only
 * invite the two to disagree. A fan-out limit that a static path of the node already passes is refused too.
 */
final class LimitsCompiler {

    /**
     * The IR, or {@code null} when the node sets neither limit.
     *
     * @param paths the sets of nodes one step of the node sends tokens to, as far as the workflow says statically
     *              (its edges, each branch rule and default, loop exits, error path, rejection path)
     */
    IrLimits compile(NodeDefinition node, List<List<String>> paths, Diagnostics diagnostics) {
        JsonNode limits = node.limits();
        if (limits == null) {
            return null;
        }
        if (limits.has("deadline_s")) {
            diagnostics.error("unsupported-setting", node.id(), node.at("limits") + "/deadline_s", "Expected no "
                    + "limits.deadline_s on node '" + node.id() + "', but it is set: a task's time limit is timeout_s "
                    + "(each attempt; the run's is the workflow's deadline), so set timeout_s instead");
        }
        Integer maxHops = limits.has("max_hops") ? limits.get("max_hops").asInt() : null;
        Integer maxFanOut = limits.has("max_fan_out") ? limits.get("max_fan_out").asInt() : null;
        if (maxFanOut != null) {
            checkFanOut(node, maxFanOut, paths, diagnostics);
        }
        return maxHops == null && maxFanOut == null ? null : new IrLimits(maxHops, maxFanOut);
    }

    private static void checkFanOut(NodeDefinition node, int maxFanOut, List<List<String>> paths,
                                    Diagnostics diagnostics) {
        for (List<String> path : paths) {
            if (path.size() > maxFanOut) {
                diagnostics.error("fan-out-over-limit", node.id(), node.at("limits") + "/max_fan_out", "Expected "
                        + "node '" + node.id() + "' to send at most " + maxFanOut + " tokens in one step "
                        + "(limits.max_fan_out), but it sends " + path.size() + " to " + path);
                return;
            }
        }
    }
}
