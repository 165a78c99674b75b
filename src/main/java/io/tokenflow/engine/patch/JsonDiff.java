package io.tokenflow.engine.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Computes a patch that turns one document into another using add, remove and replace. Objects are
 * compared member by member and recursed into; arrays keep their common head and tail, recurse into
 * the elements that line up in between and remove or insert the rest. Values are compared with
 * {@link JsonNode#equals(Object)}, so the patched source equals the target exactly, number types included.
 */
final class JsonDiff {

    private final List<PatchOperation> operations = new ArrayList<>();

    private JsonDiff() {
    }

    static List<PatchOperation> between(JsonNode source, JsonNode target) {
        JsonDiff diff = new JsonDiff();
        diff.compare(JsonPointer.root(), source, target);
        return diff.operations;
    }

    private void compare(JsonPointer path, JsonNode source, JsonNode target) {
        if (source.equals(target)) {
            return;
        }
        if (source.isObject() && target.isObject()) {
            compareObjects(path, source, target);
        } else if (source.isArray() && target.isArray()) {
            compareArrays(path, source, target);
        } else {
            operations.add(new PatchOperation.Replace(path, target));
        }
    }

    private void compareObjects(JsonPointer path, JsonNode source, JsonNode target) {
        for (String name : source.propertyNames()) {
            if (!target.has(name)) {
                operations.add(new PatchOperation.Remove(path.append(name)));
            }
        }
        for (Map.Entry<String, JsonNode> member : target.properties()) {
            JsonNode before = source.get(member.getKey());
            if (before == null) {
                operations.add(new PatchOperation.Add(path.append(member.getKey()), member.getValue()));
            } else {
                compare(path.append(member.getKey()), before, member.getValue());
            }
        }
    }

    private void compareArrays(JsonPointer path, JsonNode source, JsonNode target) {
        int shorter = Math.min(source.size(), target.size());
        int head = 0;
        while (head < shorter && source.get(head).equals(target.get(head))) {
            head++;
        }
        int tail = 0;
        while (tail < shorter - head
                && source.get(source.size() - 1 - tail).equals(target.get(target.size() - 1 - tail))) {
            tail++;
        }
        int sourceEnd = source.size() - tail;
        int targetEnd = target.size() - tail;
        int paired = Math.min(sourceEnd, targetEnd);
        for (int index = head; index < paired; index++) {
            compare(path.append(index), source.get(index), target.get(index));
        }
        for (int index = sourceEnd - 1; index >= paired; index--) {
            operations.add(new PatchOperation.Remove(path.append(index)));
        }
        for (int index = paired; index < targetEnd; index++) {
            operations.add(new PatchOperation.Add(path.append(index), target.get(index)));
        }
    }
}
