package io.tokenflow.engine.patch;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Resolves JSON Pointers in a Jackson tree per RFC 6901: object members by name, array elements by an
 * index that is "0" or digits without a leading zero, and "-" (past the last element) only where a
 * value is being inserted. Failures are {@link UnreachableLocation}s that say what was found instead.
 */
final class TreeLocator {

    private static final int MAX_INDEX_DIGITS = 9;

    private TreeLocator() {
    }

    /** The value at the pointer. */
    static JsonNode valueAt(JsonNode root, JsonPointer pointer) {
        JsonNode current = root;
        for (int depth = 0; depth < pointer.tokens().size(); depth++) {
            current = child(current, pointer, depth);
        }
        return current;
    }

    /** The object or array that holds (or would hold) the pointer's last token. */
    static JsonNode containerOf(JsonNode root, JsonPointer pointer) {
        JsonPointer parent = pointer.parent();
        JsonNode container = valueAt(root, parent);
        if (!container.isContainer()) {
            throw new UnreachableLocation(Wording.location(parent) + " is " + Wording.kindAndValue(container)
                    + ", not an object or array");
        }
        return container;
    }

    /** The existing member {@code name} of the object at {@code objectPointer}. */
    static JsonNode member(JsonNode object, JsonPointer objectPointer, String name) {
        JsonNode member = object.get(name);
        if (member == null) {
            throw new UnreachableLocation(Wording.location(objectPointer) + " has no member " + Wording.quote(name));
        }
        return member;
    }

    /** Index of an existing element of the array at {@code arrayPointer}. */
    static int existingIndex(ArrayNode array, JsonPointer arrayPointer, String token) {
        if (token.equals("-")) {
            throw new UnreachableLocation("\"-\" refers to the nonexistent element after the last of "
                    + Wording.location(arrayPointer));
        }
        int index = index(arrayPointer, token);
        if (index >= array.size()) {
            throw new UnreachableLocation(Wording.location(arrayPointer) + size(array));
        }
        return index;
    }

    /** Index at which to insert into the array at {@code arrayPointer}: 0..size, "-" meaning size. */
    static int insertionIndex(ArrayNode array, JsonPointer arrayPointer, String token) {
        if (token.equals("-")) {
            return array.size();
        }
        int index = index(arrayPointer, token);
        if (index > array.size()) {
            throw new UnreachableLocation(Wording.location(arrayPointer) + size(array)
                    + ", so the highest index to insert at is " + array.size());
        }
        return index;
    }

    private static JsonNode child(JsonNode node, JsonPointer pointer, int depth) {
        String token = pointer.tokens().get(depth);
        JsonPointer nodePointer = new JsonPointer(pointer.tokens().subList(0, depth));
        if (node.isObject()) {
            return member(node, nodePointer, token);
        }
        if (node.isArray()) {
            return node.get(existingIndex((ArrayNode) node, nodePointer, token));
        }
        throw new UnreachableLocation(Wording.location(nodePointer) + " is " + Wording.kindAndValue(node)
                + ", which has no member or element " + Wording.quote(token));
    }

    /** Parses an array index; an index too long for an int is reported as out of range by the callers. */
    private static int index(JsonPointer arrayPointer, String token) {
        if (!isIndex(token)) {
            throw new UnreachableLocation(Wording.location(arrayPointer) + " is an array and "
                    + Wording.quote(token) + " is not an array index (\"0\" or digits without a leading zero)");
        }
        return token.length() > MAX_INDEX_DIGITS ? Integer.MAX_VALUE : Integer.parseInt(token);
    }

    private static boolean isIndex(String token) {
        if (token.isEmpty() || (token.length() > 1 && token.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String size(ArrayNode array) {
        return array.isEmpty() ? " is an empty array" : " has only " + Wording.elements(array.size());
    }
}
