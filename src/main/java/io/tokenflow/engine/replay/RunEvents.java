package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Reads run events from their JSON form ({@code docs/run-events.md}), refusing unknown types and malformed fields. */
public final class RunEvents {

    private RunEvents() {
    }

    /** The events of a JSON array, in the order written, or the one event of a JSON object. */
    public static List<RunEvent> parse(JsonNode json) {
        if (json == null || !(json.isArray() || json.isObject())) {
            throw new MalformedRunEventException("Expected a run event object or an array of them, but found " + json);
        }
        if (json.isObject()) {
            return List.of(parseOne(json, "run event"));
        }
        List<RunEvent> events = new ArrayList<>(json.size());
        for (int i = 0; i < json.size(); i++) {
            events.add(parseOne(json.get(i), "run event [" + i + "]"));
        }
        return List.copyOf(events);
    }

    private static RunEvent parseOne(JsonNode json, String where) {
        if (!json.isObject()) {
            throw new MalformedRunEventException("Expected " + where + " to be an object, but found " + json);
        }
        EventJson event = new EventJson(json, where);
        RunEventType type = RunEventType.of(event.requiredText("type"));
        String described = where + " (" + type.wireName() + ")";
        EventJson fields = new EventJson(json, described);
        long seq = fields.requiredNumber("seq");
        Instant at = Instant.ofEpochMilli(fields.requiredNumber("at"));
        EventHeader header = new EventHeader(seq, at, fields.text("node"), fields.text("token"), data(json, described));
        return type.read(header, new EventJson(header.data(), "data of " + described + " seq " + seq));
    }

    private static JsonNode data(JsonNode json, String where) {
        JsonNode data = json.get("data");
        if (data == null || data.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!data.isObject()) {
            throw new MalformedRunEventException("Expected field 'data' in " + where + " to be an object, but found "
                    + data);
        }
        return data;
    }
}
