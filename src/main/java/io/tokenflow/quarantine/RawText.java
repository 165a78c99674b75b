package io.tokenflow.quarantine;

import java.util.Map;
import java.util.TreeMap;

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

    /** The text with what PostgreSQL cannot store (NUL, lone surrogates) written as escapes, the rest as it is. */
    static String storable(String text) {
        StringBuilder storable = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0 || lone(text, i)) {
                escape(storable, c);
            } else {
                storable.append(c);
            }
        }
        return storable.toString();
    }

    private static StringBuilder quoted(StringBuilder text, String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                text.append('\\').append(c);
            } else if (c < 0x20 || lone(value, i)) {
                escape(text, c);
            } else {
                text.append(c);
            }
        }
        return text.append('"');
    }

    private static boolean lone(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        return Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
    }

    private static void escape(StringBuilder text, char c) {
        text.append(String.format("\\u%04x", (int) c));
    }
}
