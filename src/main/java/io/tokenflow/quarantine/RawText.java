package io.tokenflow.quarantine;

import java.util.Map;
import java.util.TreeMap;

import io.tokenflow.engine.replay.StorableValues;

/**
 * An entry's fields as text PostgreSQL can store whatever they hold: a JSON object of strings in which control
 * characters (NUL among them) and lone surrogates are written as {@code \}{@code uXXXX} escapes.
 */
final class RawText {

    private RawText() {
    }

    static String of(Map<String, String> fields) {
        StringBuilder text = new StringBuilder("{");
        new TreeMap<>(fields).forEach((name, value) -> {
            if (text.length() > 1) {
                text.append(", ");
            }
            quoted(text, name).append(": ");
            if (value == null) {
                text.append("null");
            } else {
                quoted(text, value);
            }
        });
        return text.append('}').toString();
    }

    private static StringBuilder quoted(StringBuilder text, String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                text.append('\\').append(c);
            } else if (c < 0x20 || StorableValues.lone(value, i)) {
                escape(text, c);
            } else {
                text.append(c);
            }
        }
        return text.append('"');
    }

    private static void escape(StringBuilder text, char c) {
        text.append(String.format("\\u%04x", (int) c));
    }
}
