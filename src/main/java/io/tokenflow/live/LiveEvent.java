package io.tokenflow.live;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run event as written ({@code docs/run-events.md}), read leniently: live views show every event, including types
 * the replay does not know (yet), so the type is kept as text.
 *
 * @param at   epoch milliseconds
 * @param data the event's {@code data} object ({@code {}} when absent)
 */
public record LiveEvent(long seq, String type, long at, String node, String token, JsonNode data) {

    public LiveEvent {
        Objects.requireNonNull(type, "type");
        data = data == null || data.isNull() ? JsonNodeFactory.instance.objectNode() : data;
    }

    /** The event of one JSON object; refuses one without a positive {@code seq} or a {@code type}. */
    public static LiveEvent of(JsonNode event) {
        if (event == null || !event.isObject()) {
            throw new IllegalArgumentException("Expected a run event object, but found " + event);
        }
        JsonNode seq = event.get("seq");
        JsonNode type = event.get("type");
        if (seq == null || !seq.canConvertToLong() || seq.asLong() < 1 || type == null || !type.isString()) {
            throw new IllegalArgumentException("Expected a run event with a seq >= 1 and a type, but found " + event);
        }
        return new LiveEvent(seq.asLong(), type.asString(), event.path("at").asLong(0), text(event, "node"),
                text(event, "token"), event.get("data"));
    }

    /** The events of a JSON array (an events-stream entry's {@code events} field). */
    public static List<LiveEvent> all(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("Expected an array of run events, but found " + array);
        }
        List<LiveEvent> events = new ArrayList<>(array.size());
        array.forEach(event -> events.add(of(event)));
        return events;
    }

    /** The event in its written form, with {@code seq} replaced (the replay numbers the events it knows). */
    public ObjectNode toJson(long asSeq) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("seq", asSeq).put("type", type).put("at", at).put("node", node).put("token", token);
        json.set("data", data);
        return json;
    }

    /** A text field of {@code data}, or {@code null}. */
    public String dataText(String field) {
        return text(data, field);
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
