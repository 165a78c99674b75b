package io.tokenflow.engine.compiler;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * Checks {@code ${…}} references in a node's input mapping (and a timer's {@code wait.until}, a signal's
 * {@code signal.key}, a map's {@code map.items}): {@code ${workflow.input.<path>}} or
 * {@code ${nodes.<id>.output[.<path>]}}, where {@code <id>} is a node that runs before this one. References are
 * resolved in the input only, so one in {@code config} (which reaches workers as written) is refused.
 */
final class ReferenceChecks {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");
    static final int MAX_SEGMENTS = 100;
    private static final String PATH = "(?:\\.[A-Za-z0-9_-]+|\\[\\d+])*";
    private static final Pattern WORKFLOW_INPUT = Pattern.compile("workflow\\.input" + PATH);
    private static final Pattern NODE_OUTPUT = Pattern.compile("nodes\\.([A-Za-z_][A-Za-z0-9_-]*)\\.output" + PATH);
    private static final Pattern SEED_004_STEP = Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)\\.output" + PATH);

    /** Returns the ids of the nodes whose outputs the node reads. */
    Set<String> check(NodeDefinition node, DesugaredWorkflow workflow, RoutingGraph graph, Diagnostics diagnostics) {
        Set<String> referenced = new LinkedHashSet<>();
        if (node.input() != null) {
            walk(node.input(), node.at("input"), node, workflow, graph, referenced, diagnostics);
        }
        if (node.timer() != null && node.timer().until() != null) {
            walk(StringNode.valueOf(node.timer().until()), node.timer().pointer() + "/until", node, workflow, graph,
                    referenced, diagnostics);
        }
        if (node.signal() != null && node.signal().key() != null) {
            walk(StringNode.valueOf(node.signal().key()), node.signal().pointer() + "/key", node, workflow, graph,
                    referenced, diagnostics);
        }
        if (node.map() != null && node.map().items() != null) {
            walk(StringNode.valueOf(node.map().items()), node.map().pointer() + "/items", node, workflow, graph,
                    referenced, diagnostics);
        }
        refuseInConfig(node.config(), node.at("config"), node, diagnostics);
        return referenced;
    }

    private static void refuseInConfig(JsonNode value, String pointer, NodeDefinition node, Diagnostics diagnostics) {
        if (value.isString() && PLACEHOLDER.matcher(value.asString()).find()) {
            diagnostics.error("config-reference", node.id(), pointer, "Expected no ${…} reference in config: "
                    + "references are resolved in a node's input only, and config reaches its workers as written. "
                    + "Map the value into the input (e.g. \"input\": {\"url\": \"${workflow.input.url}\"}) and "
                    + "read it there (an http node's config may use {{input.url}})");
        } else if (value.isObject()) {
            value.properties().forEach(entry -> refuseInConfig(entry.getValue(), pointer + "/" + escape(entry.getKey()),
                    node, diagnostics));
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                refuseInConfig(value.get(i), pointer + "/" + i, node, diagnostics);
            }
        }
    }

    private void walk(JsonNode value, String pointer, NodeDefinition node, DesugaredWorkflow workflow,
                      RoutingGraph graph, Set<String> referenced, Diagnostics diagnostics) {
        if (value.isString()) {
            Matcher matcher = PLACEHOLDER.matcher(value.asString());
            while (matcher.find()) {
                checkOne(matcher.group(1).trim(), pointer, node, workflow, graph, referenced, diagnostics);
            }
        } else if (value.isObject()) {
            value.properties().forEach(entry -> walk(entry.getValue(), pointer + "/" + escape(entry.getKey()), node,
                    workflow, graph, referenced, diagnostics));
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                walk(value.get(i), pointer + "/" + i, node, workflow, graph, referenced, diagnostics);
            }
        }
    }

    private void checkOne(String expression, String pointer, NodeDefinition node, DesugaredWorkflow workflow,
                          RoutingGraph graph, Set<String> referenced, Diagnostics diagnostics) {
        long segments = expression.chars().filter(c -> c == '.' || c == '[').count();
        if (segments > MAX_SEGMENTS) {
            // the path patterns match a segment per repetition, recursively: thousands overflowed the stack
            diagnostics.error("invalid-reference", node.id(), pointer, "Expected a reference of at most "
                    + MAX_SEGMENTS + " segments, but ${" + expression.substring(0, 40) + "…} has " + segments);
            return;
        }
        if (WORKFLOW_INPUT.matcher(expression).matches()) {
            return;
        }
        Matcher output = NODE_OUTPUT.matcher(expression);
        if (output.matches()) {
            checkNode(output.group(1), pointer, node, workflow, graph, referenced, diagnostics);
            return;
        }
        Matcher step = SEED_004_STEP.matcher(expression);
        String hint = step.matches() ? "; write ${nodes." + expression + "}" : "";
        diagnostics.error("invalid-reference", node.id(), pointer, "Expected ${workflow.input.<field>} or "
                + "${nodes.<id>.output.<field>}, but found ${" + expression + "}" + hint);
    }

    private void checkNode(String target, String pointer, NodeDefinition node, DesugaredWorkflow workflow,
                           RoutingGraph graph, Set<String> referenced, Diagnostics diagnostics) {
        if (!workflow.nodeIds().contains(target)) {
            diagnostics.error("unknown-node", node.id(), pointer, "Expected ${nodes." + target + ".…} to name a node "
                    + "of this workflow, but there is no node '" + target + "'");
            return;
        }
        referenced.add(target);
        if (target.equals(node.id()) || !graph.reaches(target, node.id())) {
            diagnostics.warning("reference-order", node.id(), pointer, "Node '" + node.id() + "' reads the output of '"
                    + target + "', which does not run before it; the value is missing at run time");
        }
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
