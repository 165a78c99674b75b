package io.tokenflow.engine.cel;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON to the values CEL works on and back: objects are maps, arrays lists, integers {@code Long} (CEL has no
 * overloads for {@code Integer}), other numbers {@code Double}, null {@link NullValue}. Integers come back as the
 * smallest node that holds them, as a JSON parser would make them. Timestamps and durations come
 * back as ISO-8601 text, bytes as base64, numbers that JSON cannot hold (NaN, infinities) as null.
 */
public final class CelValues {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CelValues() {
    }

    public static Object toCel(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>(Math.max(4, node.size() * 2));
            node.forEachEntry((name, value) -> map.put(name, toCel(value)));
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.values().forEach(value -> list.add(toCel(value)));
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.isString() ? node.stringValue() : node.toString();
    }

    public static JsonNode toJson(Object value) {
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            map.forEach((key, member) -> object.set(String.valueOf(key), toJson(member)));
            return object;
        }
        if (value instanceof List<?> list) {
            ArrayNode array = NODES.arrayNode(list.size());
            list.forEach(member -> array.add(toJson(member)));
            return array;
        }
        return scalarToJson(value);
    }

    private static JsonNode scalarToJson(Object value) {
        if (value == null || value instanceof NullValue || value instanceof com.google.protobuf.NullValue) {
            return NODES.nullNode();
        }
        if (value instanceof Number number) {
            return numberToJson(number);
        }
        if (value instanceof Boolean bool) {
            return NODES.booleanNode(bool);
        }
        if (value instanceof CelByteString bytes) {
            return NODES.stringNode(Base64.getEncoder().encodeToString(bytes.toByteArray()));
        }
        if (value instanceof Optional<?> optional) {
            return optional.map(CelValues::toJson).orElseGet(NODES::nullNode);
        }
        if (value instanceof Instant || value instanceof Duration || value instanceof String) {
            return NODES.stringNode(value.toString());
        }
        return NODES.stringNode(String.valueOf(value));
    }

    private static JsonNode numberToJson(Number value) {
        if (value instanceof Long || value instanceof Integer) {
            long number = value.longValue();
            return number == (int) number ? NODES.numberNode((int) number) : NODES.numberNode(number);
        }
        if (value instanceof UnsignedLong unsigned) {
            return NODES.numberNode(unsigned.bigIntegerValue());
        }
        double number = value.doubleValue();
        return Double.isFinite(number) ? NODES.numberNode(number) : NODES.nullNode();
    }
}
