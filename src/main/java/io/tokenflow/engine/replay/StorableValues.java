package io.tokenflow.engine.replay;

import java.util.Map;
import java.util.Optional;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What of a JSON value PostgreSQL cannot store as it is: a NUL character (jsonb and text columns refuse it), a lone
 * UTF-16 surrogate (not text at all), or a number out of a double's range ({@code 1e999}, which Jackson reads as
 * infinity). Everything an event carries must pass, or the event log could not write it: the API refuses such input
 * (422, {@code web.StorableJson}), and a worker's output or error with it fails its node instead of reaching an event.
 */
public final class StorableValues {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StorableValues() {
    }

    /** The first problem in a value, naming its JSON pointer (below {@code pointer}); empty when it can be stored. */
    public static Optional<Problem> problem(JsonNode value, String pointer) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.isString()) {
            return problem(value.asString(), pointer);
        }
        if (value.isNumber() && value.isFloatingPointNumber() && !Double.isFinite(value.asDouble())) {
            return Optional.of(new Problem(pointer, "Expected a finite number at '" + pointer + "', but it is out of "
                    + "range (" + value.asDouble() + ")"));
        }
        if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                Optional<Problem> found = problem(value.get(i), pointer + "/" + i);
                if (found.isPresent()) {
                    return found;
                }
            }
        } else if (value.isObject()) {
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                String child = pointer + "/" + member.getKey().replace("~", "~0").replace("/", "~1");
                Optional<Problem> found = problem(member.getKey(), child).or(() -> problem(member.getValue(), child));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** The first problem in a text (a string value or a member name) at {@code pointer}. */
    public static Optional<Problem> problem(String text, String pointer) {
        if (text == null) {
            return Optional.empty();
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return Optional.of(new Problem(pointer, "Expected text without NUL characters at '" + pointer
                        + "', but found one (\\u0000) at offset " + i + ": PostgreSQL cannot store it"));
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of(new Problem(pointer, "Expected valid Unicode text at '" + pointer + "', but found a "
                        + "lone surrogate (\\u" + Integer.toHexString(c) + ") at offset " + i));
            }
        }
        return Optional.empty();
    }

    /**
     * The first problem in JSON text a worker sent (an output, an error), looked for only when the text holds an
     * escape that could be one ({@code \\u0000}, {@code \\ud800}–{@code \\udfff}), a raw surrogate or a digit before an
     * exponent, so that ordinary output costs one scan of its characters. Malformed text is not this class's concern.
     */
    public static Optional<Problem> problemInText(String json) {
        if (json == null || !suspicious(json)) {
            return Optional.empty();
        }
        try {
            return problem(JSON.readTree(json), "");
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    private static boolean suspicious(String json) {
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if ((c == 'e' || c == 'E') && i > 0 && Character.isDigit(json.charAt(i - 1)) || Character.isSurrogate(c)) {
                return true;
            }
            if (c == '\\' && i + 2 < json.length() && json.charAt(i + 1) == 'u') {
                char hex = json.charAt(i + 2);
                if (hex == '0' || hex == 'd' || hex == 'D') {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The text with what PostgreSQL cannot store written as {@code \}{@code uXXXX} escapes (NUL characters and lone
     * surrogates), the rest as it is: for keeping text whatever it holds (an entry set aside, a refused signal).
     */
    public static String storable(String text) {
        if (text == null || problem(text, "").isEmpty()) {
            return text;
        }
        StringBuilder storable = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0 || lone(text, i)) {
                storable.append(String.format("\\u%04x", (int) c));
            } else {
                storable.append(c);
            }
        }
        return storable.toString();
    }

    /** Whether the character at {@code i} is a surrogate without its other half. */
    public static boolean lone(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
    }

    /** What cannot be stored, and where. */
    public record Problem(String pointer, String message) {
    }
}
