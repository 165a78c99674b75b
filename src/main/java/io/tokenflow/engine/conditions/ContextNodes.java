package io.tokenflow.engine.conditions;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;

import tools.jackson.databind.JsonNode;

/**
 * The nodes whose outputs a condition reads, computed from its normalised definition alone, so that it comes out the
 * same when the compiler makes a condition and when stored IR is read back ({@link CompiledCondition#fromJson}).
 */
final class ContextNodes {

    private static final Map<String, BiConsumer<JsonNode, Set<String>>> BY_TYPE = Map.of(
            "cel", (condition, nodes) -> fromCel(condition.path("expression"), nodes),
            "jsonpath", ContextNodes::fromSource,
            "schema_validation", ContextNodes::fromSource,
            "cross_node_comparison", ContextNodes::fromCrossNode,
            "composite", (condition, nodes) -> condition.path("conditions").forEach(member -> collect(member, nodes)),
            "python_sandbox", (condition, nodes) -> condition.path("context_nodes")
                    .forEach(node -> nodes.add(node.asString())));

    private ContextNodes() {
    }

    static Set<String> of(JsonNode condition) {
        Set<String> nodes = new TreeSet<>();
        collect(condition, nodes);
        return nodes;
    }

    private static void collect(JsonNode condition, Set<String> nodes) {
        var reader = BY_TYPE.get(condition.path("type").asString(""));
        if (reader != null) {
            reader.accept(condition, nodes);
        }
    }

    private static void fromCel(JsonNode expression, Set<String> nodes) {
        if (expression.isString()) {
            CelContextReferences.in(expression.asString()).stream().map(CelContextReferences.Reference::node)
                    .filter(Objects::nonNull).forEach(nodes::add);
        }
    }

    /** {@code "source": "context", "node": "<id>"}, as jsonpath, schema_validation and comparison sides have it. */
    private static void fromSource(JsonNode holder, Set<String> nodes) {
        if (Subject.CONTEXT.equals(holder.path("source").asString("")) && holder.path("node").isString()) {
            nodes.add(holder.get("node").asString());
        }
    }

    private static void fromCrossNode(JsonNode condition, Set<String> nodes) {
        fromCel(condition.path("expression"), nodes);
        fromSource(condition.path("left"), nodes);
        fromSource(condition.path("right"), nodes);
    }
}
