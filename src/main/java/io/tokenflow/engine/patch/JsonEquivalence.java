package io.tokenflow.engine.patch;

import java.util.Iterator;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * JSON value equality as RFC 6902 "test" defines it: numbers are equal when numerically equal
 * (1, 1.0 and 1e0 are the same), object member order is irrelevant, arrays compare element by
 * element, strings by their code points. Unlike {@link JsonNode#equals(Object)}, it does not depend
 * on which Jackson node class happens to hold a number.
 */
public final class JsonEquivalence {

    private JsonEquivalence() {
    }

    /** Whether the two values are the same JSON value. */
    public static boolean equivalent(JsonNode left, JsonNode right) {
        if (left.isNumber() && right.isNumber()) {
            return sameNumber(left, right);
        }
        if (left.getNodeType() != right.getNodeType()) {
            return false;
        }
        if (left.isObject()) {
            return sameMembers(left, right);
        }
        if (left.isArray()) {
            return sameElements(left, right);
        }
        return left.equals(right);
    }

    private static boolean sameNumber(JsonNode left, JsonNode right) {
        if (notFinite(left) || notFinite(right)) {
            return left.doubleValue() == right.doubleValue();
        }
        return left.decimalValue().compareTo(right.decimalValue()) == 0;
    }

    private static boolean notFinite(JsonNode number) {
        return number.isFloatingPointNumber() && !number.isBigDecimal() && !Double.isFinite(number.doubleValue());
    }

    private static boolean sameMembers(JsonNode left, JsonNode right) {
        if (left.size() != right.size()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> member : left.properties()) {
            JsonNode other = right.get(member.getKey());
            if (other == null || !equivalent(member.getValue(), other)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameElements(JsonNode left, JsonNode right) {
        if (left.size() != right.size()) {
            return false;
        }
        Iterator<JsonNode> others = right.iterator();
        for (JsonNode element : left) {
            if (!equivalent(element, others.next())) {
                return false;
            }
        }
        return true;
    }
}
