package io.tokenflow.engine.patch;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Renders pointers, names and values for error messages, shortening anything hostile-sized. */
final class Wording {

    private static final int MAX_RENDERED_CHARS = 200;

    private Wording() {
    }

    /** The text as a JSON string literal, e.g. {@code "/a/b"}. */
    static String quote(String text) {
        return shorten(JsonNodeFactory.instance.stringNode(text).toString());
    }

    /** A pointer for prose: quoted, or "the document root" for the empty pointer. */
    static String location(JsonPointer pointer) {
        return pointer.isRoot() ? "the document root" : quote(pointer.toString());
    }

    /** The value as compact JSON. */
    static String render(JsonNode value) {
        return shorten(value.toString());
    }

    /** The JSON type of the value with an article, e.g. "an object", "a string". */
    static String kind(JsonNode value) {
        return switch (value.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> "not a JSON value (" + value.getNodeType() + ")";
        };
    }

    /** The type and the value, e.g. "a number (5)"; null is just "null". */
    static String kindAndValue(JsonNode value) {
        return value.isNull() || value.isMissingNode() ? kind(value) : kind(value) + " (" + render(value) + ")";
    }

    /** "1 element" / "3 elements". */
    static String elements(int count) {
        return count == 1 ? "1 element" : count + " elements";
    }

    private static String shorten(String text) {
        if (text.length() <= MAX_RENDERED_CHARS) {
            return text;
        }
        return text.substring(0, MAX_RENDERED_CHARS) + "...(" + text.length() + " chars)";
    }
}
