package io.tokenflow.engine.compiler;

import java.util.Optional;
import java.util.regex.Pattern;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.MapDefinition;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.ir.IrMap;
import io.tokenflow.engine.ir.IrOnFailure;
import io.tokenflow.engine.types.NodeKind;
import io.tokenflow.engine.types.NodeTypeSpec;

/**
 * A node's {@code map}: only a node a worker runs maps (each element is one of its tasks, and the element is the
 * task's input, so the node has no input mapping), {@code items} is one reference, and parking an element in the
 * dead-letter queue is not offered (an element's failure fails the run or, with an error path, stands in the list as
 * its error).
 */
final class MapNodeCompiler {

    private static final Pattern ONE_REFERENCE = Pattern.compile("^\\$\\{[^}]*}$");

    /** The IR of the node's map, or {@code null} when it has none (or one with problems, reported). */
    IrMap compile(NodeDefinition node, Optional<NodeTypeSpec> spec, Diagnostics diagnostics) {
        MapDefinition map = node.map();
        if (map == null || map.items() == null) {
            return null;
        }
        boolean ok = true;
        NodeKind kind = spec.map(NodeTypeSpec::kind).orElse(NodeKind.TASK);
        String worker = spec.map(NodeTypeSpec::worker).orElse(null);
        if (kind != NodeKind.TASK || worker == null || HeldNodeCompiler.WAIT.equals(node.type())
                || HeldNodeCompiler.SIGNAL.equals(node.type()) || HeldNodeCompiler.CALL.equals(node.type())) {
            diagnostics.error("map-settings", node.id(), map.pointer(), "Expected map only on a node a worker runs, "
                    + "but '" + node.id() + "' is a '" + node.type() + "' node");
            ok = false;
        }
        if (!ONE_REFERENCE.matcher(map.items()).matches()) {
            diagnostics.error("map-settings", node.id(), map.pointer() + "/items", "Expected map.items to be one "
                    + "reference giving a list, e.g. \"${nodes.fetch.output.customers}\", but found '" + map.items()
                    + "'");
            ok = false;
        }
        if (node.input() != null) {
            diagnostics.error("map-settings", node.id(), node.at("input"), "Expected no input mapping on map node '"
                    + node.id() + "', but it has one: each element of map.items is its task's input");
            ok = false;
        }
        if (node.onFailure() != null && IrOnFailure.DLQ.equals(node.onFailure().action())) {
            diagnostics.error("unsupported-setting", node.id(), node.onFailure().pointer() + "/action", "Expected "
                    + "on_failure 'fail_run' or 'path' on map node '" + node.id() + "', but it is 'dlq': an element "
                    + "cannot be parked in the dead-letter queue");
            ok = false;
        }
        return ok ? new IrMap(map.items(), map.concurrency() == null ? IrMap.DEFAULT_CONCURRENCY : map.concurrency(),
                map.maxItems() == null ? IrMap.DEFAULT_MAX_ITEMS : map.maxItems(), worker) : null;
    }
}
