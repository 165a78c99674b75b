package io.tokenflow.workers.data;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.cel.CelValues;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Groups items (CEL values: maps, lists, Long, Double, …) by the values of the {@code group_by} fields, in order of
 * first appearance, and computes each aggregation per group. Without {@code group_by} there is exactly one group,
 * with an empty key, even for no items.
 */
final class GroupAggregator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final List<String> groupBy;
    private final List<Aggregation> aggregations;

    GroupAggregator(List<String> groupBy, List<Aggregation> aggregations) {
        this.groupBy = List.copyOf(groupBy);
        this.aggregations = List.copyOf(aggregations);
    }

    /** {@code {"groups": [{"key": {...}, "<as>": value, ...}, ...]}} */
    ObjectNode aggregate(List<?> items) throws DataTaskException {
        Map<List<Object>, Accumulator[]> groups = new LinkedHashMap<>();
        if (groupBy.isEmpty()) {
            groups.put(List.of(), accumulators());
        }
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            Accumulator[] group = groups.computeIfAbsent(key(item), key -> accumulators());
            for (int a = 0; a < group.length; a++) {
                group[a].add(fieldOf(item, aggregations.get(a).field()), i);
            }
        }
        ArrayNode output = NODES.arrayNode(groups.size());
        groups.forEach((key, group) -> output.add(toJson(key, group)));
        ObjectNode result = NODES.objectNode();
        result.set("groups", output);
        return result;
    }

    private List<Object> key(Object item) {
        List<Object> key = new ArrayList<>(groupBy.size());
        groupBy.forEach(field -> key.add(fieldOf(item, field)));
        return key;
    }

    private ObjectNode toJson(List<Object> key, Accumulator[] group) {
        ObjectNode keyNode = NODES.objectNode();
        for (int i = 0; i < groupBy.size(); i++) {
            keyNode.set(groupBy.get(i), CelValues.toJson(key.get(i)));
        }
        ObjectNode groupNode = NODES.objectNode();
        groupNode.set("key", keyNode);
        for (int a = 0; a < group.length; a++) {
            groupNode.set(aggregations.get(a).as(), CelValues.toJson(group[a].result()));
        }
        return groupNode;
    }

    private Accumulator[] accumulators() {
        Accumulator[] group = new Accumulator[aggregations.size()];
        for (int a = 0; a < group.length; a++) {
            group[a] = new Accumulator(aggregations.get(a));
        }
        return group;
    }

    /** The value at a dotted path of a map item; {@code null} when absent, null, or the item is no map. */
    static Object fieldOf(Object item, String path) {
        if (path == null) {
            return null;
        }
        Object current = item;
        for (String part : path.split("\\.", -1)) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(part);
        }
        return current instanceof dev.cel.common.values.NullValue ? null : current;
    }
}
