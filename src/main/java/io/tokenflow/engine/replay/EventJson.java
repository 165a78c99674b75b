package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/** Reads the fields of one event's JSON object, refusing what does not fit the contract with a clear message. */
record EventJson(JsonNode object, String where) {

    boolean has(String field) {
        JsonNode value = object.get(field);
        return value != null && !value.isNull();
    }

    /** The value as written, JSON null included; {@code null} only when the field is absent. */
    JsonNode json(String field) {
        return object.get(field);
    }

    String text(String field) {
        if (!has(field)) {
            return null;
        }
        JsonNode value = object.get(field);
        if (!value.isString()) {
            throw malformed(field, "a string", value);
        }
        return value.asString();
    }

    String requiredText(String field) {
        String value = text(field);
        if (value == null) {
            throw new MalformedRunEventException("Expected field '" + field + "' in " + where + ", but it is missing");
        }
        return value;
    }

    long number(String field, long absent) {
        if (!has(field)) {
            return absent;
        }
        JsonNode value = object.get(field);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw malformed(field, "an integer", value);
        }
        return value.asLong();
    }

    long requiredNumber(String field) {
        if (!has(field)) {
            throw new MalformedRunEventException("Expected field '" + field + "' in " + where + ", but it is missing");
        }
        return number(field, 0);
    }

    boolean flag(String field) {
        if (!has(field)) {
            return false;
        }
        JsonNode value = object.get(field);
        if (!value.isBoolean()) {
            throw malformed(field, "true or false", value);
        }
        return value.asBoolean();
    }

    Instant instant(String field) {
        return has(field) ? Instant.ofEpochMilli(number(field, 0)) : null;
    }

    List<String> texts(String field) {
        List<String> values = new ArrayList<>();
        if (!has(field)) {
            return values;
        }
        JsonNode array = object.get(field);
        if (!array.isArray()) {
            throw malformed(field, "an array of strings", array);
        }
        array.forEach(item -> values.add(item.asString()));
        return values;
    }

    /** An object whose members are all strings, in order (empty when absent). */
    Map<String, String> textsByName(String field) {
        Map<String, String> values = new LinkedHashMap<>();
        if (!has(field)) {
            return values;
        }
        JsonNode object = this.object.get(field);
        if (!object.isObject()) {
            throw malformed(field, "an object of strings", object);
        }
        object.properties().forEach(member -> values.put(member.getKey(), member.getValue().asString()));
        return values;
    }

    /** A count written either as a number or as the array of what was counted. */
    int count(String field) {
        if (has(field) && object.get(field).isArray()) {
            return object.get(field).size();
        }
        return Math.toIntExact(number(field, 0));
    }

    int iteration() {
        return Math.toIntExact(number("iteration", 0));
    }

    private MalformedRunEventException malformed(String field, String expected, JsonNode found) {
        return new MalformedRunEventException("Expected field '" + field + "' in " + where + " to be " + expected
                + ", but found " + found);
    }
}
