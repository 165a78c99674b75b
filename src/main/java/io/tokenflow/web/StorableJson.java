package io.tokenflow.web;

import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Refuses, where a request enters, JSON that PostgreSQL cannot store as it was sent: a NUL character (jsonb and text
 * columns refuse it), a lone UTF-16 surrogate (not text at all: written back as {@code ?}), and a number out of a
 * double's range ({@code 1e999} is parsed as infinity and written back as the string {@code "Infinity"}). Refusing is
 * chosen over an escape of our own: what is stored is exactly what was sent, and the one who sent it learns at once
 * (422 naming the pointer) instead of an event the event log cannot write.
 */
public final class StorableJson {

    private StorableJson() {
    }

    /** @throws BadRequestException (422) naming the pointer of the first member or value that cannot be stored */
    public static void check(JsonNode value, String pointer) {
        if (value == null) {
            return;
        }
        if (value.isString()) {
            check(value.asString(), pointer);
        } else if (value.isNumber() && value.isFloatingPointNumber() && !Double.isFinite(value.asDouble())) {
            throw new BadRequestException(422, "Expected a finite number at '" + pointer + "', but it is out of range "
                    + "(" + value.asDouble() + ")", pointer);
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                check(value.get(i), pointer + "/" + i);
            }
        } else if (value.isObject()) {
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                String child = pointer + "/" + member.getKey().replace("~", "~0").replace("/", "~1");
                check(member.getKey(), child);
                check(member.getValue(), child);
            }
        }
    }

    /** @throws BadRequestException (422) naming the pointer when the text cannot be stored */
    public static void check(String text, String pointer) {
        if (text == null) {
            return;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                throw new BadRequestException(422, "Expected text without NUL characters at '" + pointer + "', but "
                        + "found one (\\u0000) at offset " + i + ": PostgreSQL cannot store it", pointer);
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new BadRequestException(422, "Expected valid Unicode text at '" + pointer + "', but found a lone "
                        + "surrogate (\\u" + Integer.toHexString(c) + ") at offset " + i, pointer);
            }
        }
    }
}
