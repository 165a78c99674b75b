package io.tokenflow.engine.patch;

import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One RFC 6902 operation. The six kinds are immutable records: JSON values are deep-copied when an
 * operation is built and again whenever {@code value()} is read, so no caller can alter an operation.
 */
public sealed interface PatchOperation
        permits PatchOperation.Add, PatchOperation.Remove, PatchOperation.Replace,
                PatchOperation.Move, PatchOperation.Copy, PatchOperation.Test {

    /** The RFC 6902 operation name: "add", "remove", "replace", "move", "copy" or "test". */
    String op();

    /** The target location ("path" member). */
    JsonPointer path();

    /** This operation as its RFC 6902 JSON object, e.g. {"op":"add","path":"/a","value":1}. */
    ObjectNode toJson();

    /** Adds {@code value} at {@code path}: inserts into an array ("-" appends), sets an object member, or replaces the root. */
    record Add(JsonPointer path, JsonNode value) implements PatchOperation {
        /** Validates and copies. */
        public Add {
            path = required(path, "path");
            value = owned(value);
        }

        /** A fresh copy of the value to add. */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }

        @Override
        public String op() {
            return "add";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path).set("value", value());
        }
    }

    /** Removes the value at {@code path}, which must exist and must not be the root. */
    record Remove(JsonPointer path) implements PatchOperation {
        /** Validates. */
        public Remove {
            path = required(path, "path");
        }

        @Override
        public String op() {
            return "remove";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path);
        }
    }

    /** Replaces the existing value at {@code path} with {@code value}. */
    record Replace(JsonPointer path, JsonNode value) implements PatchOperation {
        /** Validates and copies. */
        public Replace {
            path = required(path, "path");
            value = owned(value);
        }

        /** A fresh copy of the replacement value. */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }

        @Override
        public String op() {
            return "replace";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path).set("value", value());
        }
    }

    /** Removes the value at {@code from} and adds it at {@code path}; {@code path} must not lie inside {@code from}. */
    record Move(JsonPointer from, JsonPointer path) implements PatchOperation {
        /** Validates. */
        public Move {
            from = required(from, "from");
            path = required(path, "path");
        }

        @Override
        public String op() {
            return "move";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path).put("from", from.toString());
        }
    }

    /** Adds a deep copy of the value at {@code from} at {@code path}. */
    record Copy(JsonPointer from, JsonPointer path) implements PatchOperation {
        /** Validates. */
        public Copy {
            from = required(from, "from");
            path = required(path, "path");
        }

        @Override
        public String op() {
            return "copy";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path).put("from", from.toString());
        }
    }

    /** Checks that the value at {@code path} equals {@code value} (numbers by value, member order ignored). */
    record Test(JsonPointer path, JsonNode value) implements PatchOperation {
        /** Validates and copies. */
        public Test {
            path = required(path, "path");
            value = owned(value);
        }

        /** A fresh copy of the expected value. */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }

        @Override
        public String op() {
            return "test";
        }

        @Override
        public ObjectNode toJson() {
            return json(op(), path).set("value", value());
        }
    }

    private static JsonPointer required(JsonPointer pointer, String member) {
        return Objects.requireNonNull(pointer, member);
    }

    private static JsonNode owned(JsonNode value) {
        Objects.requireNonNull(value, "value (use a NullNode for JSON null)");
        if (value.isMissingNode() || value.isPojo()) {
            throw new IllegalArgumentException("Expected a JSON value, but it is " + Wording.kind(value));
        }
        return value.deepCopy();
    }

    private static ObjectNode json(String op, JsonPointer path) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        return node.put("op", op).put("path", path.toString());
    }
}
