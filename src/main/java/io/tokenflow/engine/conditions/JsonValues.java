package io.tokenflow.engine.conditions;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** JSON equality and order as conditions compare: numbers by value (1 equals 1.0), member order ignored. */
final class JsonValues {

    private JsonValues() {
    }

    static boolean equal(JsonNode left, JsonNode right) {
        if (left.isNumber() && right.isNumber()) {
            return left.decimalValue().compareTo(right.decimalValue()) == 0;
        }
        if (left.isArray() && right.isArray()) {
            if (left.size() != right.size()) {
                return false;
            }
            for (int i = 0; i < left.size(); i++) {
                if (!equal(left.get(i), right.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (left.isObject() && right.isObject()) {
            return left.size() == right.size() && membersEqual(left, right);
        }
        return left.equals(right);
    }

    /**
     * The order of two numbers or two texts.
     *
     * @throws ConditionEvaluationException for any other pair
     */
    static int order(JsonNode left, JsonNode right, String operator, String what) {
        if (left.isNumber() && right.isNumber()) {
            return left.decimalValue().compareTo(right.decimalValue());
        }
        if (left.isString() && right.isString()) {
            return left.asString().compareTo(right.asString());
        }
        throw new ConditionEvaluationException("Expected " + what + " to be a " + (right.isString() ? "text" : "number")
                + " to compare with " + operator + " " + right + ", but it is " + (left.isNull() ? "missing or null"
                : left.toString()));
    }

    static JsonNode number(BigDecimal value) {
        return JsonNodeFactory.instance.numberNode(value);
    }

    private static boolean membersEqual(JsonNode left, JsonNode right) {
        Iterator<Map.Entry<String, JsonNode>> members = left.properties().iterator();
        while (members.hasNext()) {
            Map.Entry<String, JsonNode> member = members.next();
            JsonNode other = right.get(member.getKey());
            if (other == null || !equal(member.getValue(), other)) {
                return false;
            }
        }
        return true;
    }
}
