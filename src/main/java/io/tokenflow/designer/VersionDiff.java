package io.tokenflow.designer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.patch.JsonPatch;
import tools.jackson.databind.JsonNode;

/**
 * What changed between two versions: the RFC 6902 patch from one to the other, and the nodes and edges it adds,
 * removes or changes (by node id and by {@code from → to}), which the canvas highlights.
 */
public record VersionDiff(int from, int to, String patch, int operations, List<String> addedNodes,
                          List<String> removedNodes, List<String> changedNodes, List<String> addedEdges,
                          List<String> removedEdges) {

    public VersionDiff {
        addedNodes = List.copyOf(addedNodes);
        removedNodes = List.copyOf(removedNodes);
        changedNodes = List.copyOf(changedNodes);
        addedEdges = List.copyOf(addedEdges);
        removedEdges = List.copyOf(removedEdges);
    }

    static VersionDiff of(int from, int to, JsonNode before, JsonNode after, JsonPatch patch) {
        Map<String, JsonNode> oldNodes = byKey(before.path("nodes"), node -> node.path("id").asString(""));
        Map<String, JsonNode> newNodes = byKey(after.path("nodes"), node -> node.path("id").asString(""));
        Map<String, JsonNode> oldEdges = byKey(before.path("edges"), VersionDiff::edgeKey);
        Map<String, JsonNode> newEdges = byKey(after.path("edges"), VersionDiff::edgeKey);
        List<String> changed = new ArrayList<>();
        newNodes.forEach((id, node) -> {
            if (oldNodes.containsKey(id) && !oldNodes.get(id).equals(node)) {
                changed.add(id);
            }
        });
        return new VersionDiff(from, to, patch.toJson().toPrettyString(), patch.size(), missingFrom(oldNodes, newNodes),
                missingFrom(newNodes, oldNodes), changed, missingFrom(oldEdges, newEdges),
                missingFrom(newEdges, oldEdges));
    }

    public boolean empty() {
        return operations == 0;
    }

    /** The edge's key as the canvas names edges: {@code A → B}. */
    static String edgeKey(JsonNode edge) {
        return edge.path("from").asString("") + " → " + edge.path("to").asString("");
    }

    private static Map<String, JsonNode> byKey(JsonNode items, java.util.function.Function<JsonNode, String> key) {
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        items.forEach(item -> byKey.putIfAbsent(key.apply(item), item));
        return byKey;
    }

    private static List<String> missingFrom(Map<String, JsonNode> reference, Map<String, JsonNode> items) {
        return items.keySet().stream().filter(key -> !reference.containsKey(key)).toList();
    }
}
