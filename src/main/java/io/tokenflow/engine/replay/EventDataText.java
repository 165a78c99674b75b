package io.tokenflow.engine.replay;

import java.util.Collection;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the {@code data} object of a run event as JSON text, member by member: the writing side of
 * {@link EventJson}. Each event record has a static {@code data(...)} method beside its {@code read}, built on this,
 * so one type writes and reads each event; {@code RunEventDataTests} reads every writer's text back through
 * {@link RunEvents#parse(String, tools.jackson.databind.ObjectMapper)}.
 *
 * <p>Written by hand rather than as a Jackson tree: events are written on the hot path (two or three per completion),
 * a tree would be built only to be written out at once, and values that arrive as JSON text (outputs, errors) are
 * embedded as they are, never parsed and written again.
 */
public final class EventDataText {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StringBuilder text = new StringBuilder(96).append('{');

    /** A member whose value is a string, or {@code null}. */
    public EventDataText text(String name, String value) {
        return raw(name, quote(value));
    }

    public EventDataText number(String name, long value) {
        return raw(name, Long.toString(value));
    }

    /** A member whose value is a number, or {@code null}. */
    public EventDataText number(String name, Long value) {
        return raw(name, value == null ? "null" : value.toString());
    }

    public EventDataText flag(String name, boolean value) {
        return raw(name, value ? "true" : "false");
    }

    public EventDataText texts(String name, Collection<String> values) {
        StringBuilder list = new StringBuilder().append('[');
        for (String value : values) {
            list.append(list.length() > 1 ? "," : "").append(quote(value));
        }
        return raw(name, list.append(']').toString());
    }

    /** A member whose value is an object of strings (names and values quoted as needed). */
    public EventDataText texts(String name, Map<String, String> values) {
        StringBuilder object = new StringBuilder().append('{');
        values.forEach((key, value) -> object.append(object.length() > 1 ? "," : "").append(quote(key)).append(':')
                .append(quote(value)));
        return raw(name, object.append('}').toString());
    }

    public EventDataText json(String name, JsonNode value) {
        return raw(name, value == null ? "null" : JSON.writeValueAsString(value));
    }

    /** A member whose value is JSON text already (an output, an error object), embedded as it is. */
    public EventDataText raw(String name, String json) {
        if (text.length() > 1) {
            text.append(',');
        }
        text.append('"').append(name).append("\":").append(json == null ? "null" : json);
        return this;
    }

    public String end() {
        return text.append('}').toString();
    }

    /** The JSON string literal of {@code value} ({@code null} for none); text with nothing to escape is just quoted. */
    public static String quote(String value) {
        if (value == null) {
            return "null";
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                return JSON.writeValueAsString(value);
            }
        }
        return "\"" + value + "\"";
    }
}
