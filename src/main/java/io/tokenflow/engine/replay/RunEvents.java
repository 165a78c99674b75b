package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

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

    /**
     * As {@link #parse(JsonNode)}, from JSON text, keeping each event's {@code data} text as written
     * ({@link EventHeader#dataText()}). Malformed JSON, or anything after the array or object, is refused.
     */
    public static List<RunEvent> parse(String text, ObjectMapper mapper) {
        try (JsonParser parser = mapper.createParser(text)) {
            JsonToken first = parser.nextToken();
            List<RunEvent> events = new ArrayList<>();
            if (first == JsonToken.START_OBJECT) {
                events.add(readOne(parser, text, "run event"));
            } else if (first == JsonToken.START_ARRAY) {
                for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                    String where = "run event [" + events.size() + "]";
                    if (token != JsonToken.START_OBJECT) {
                        throw new MalformedRunEventException("Expected " + where + " to be an object, but found "
                                + parser.readValueAsTree());
                    }
                    events.add(readOne(parser, text, where));
                }
            } else {
                throw new MalformedRunEventException("Expected a run event object or an array of them, but found "
                        + (first == null ? "nothing" : parser.readValueAsTree()));
            }
            if (parser.nextToken() != null) {
                throw new MalformedRunEventException("Expected nothing after the run events, but found more at "
                        + parser.currentTokenLocation().getCharOffset());
            }
            return List.copyOf(events);
        } catch (StreamReadException e) {
            throw new MalformedRunEventException("Expected run events as JSON, but " + e.getOriginalMessage());
        }
    }

    /** One event object, the parser on its start; the text of its data object is cut from the source as written. */
    private static RunEvent readOne(JsonParser parser, String text, String where) {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        String dataText = null;
        for (String field = parser.nextName(); field != null; field = parser.nextName()) {
            JsonToken value = parser.nextToken();
            long start = parser.currentTokenLocation().getCharOffset();
            object.set(field, value(parser, value));
            if (field.equals("data")) {
                dataText = value == JsonToken.START_OBJECT
                        ? text.substring((int) start, (int) parser.currentTokenLocation().getCharOffset() + 1) : null;
            }
        }
        return parseOne(object, where, dataText);
    }

    /** The value the parser is on, as reading the text into a tree would make it (scalars without a databind call). */
    private static JsonNode value(JsonParser parser, JsonToken token) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (token) {
            case VALUE_STRING -> nodes.stringNode(parser.getString());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> nodes.numberNode(parser.getIntValue());
                case LONG -> nodes.numberNode(parser.getLongValue());
                default -> nodes.numberNode(parser.getBigIntegerValue());
            };
            case VALUE_NULL -> nodes.nullNode();
            case VALUE_TRUE, VALUE_FALSE -> nodes.booleanNode(token == JsonToken.VALUE_TRUE);
            default -> parser.readValueAsTree();
        };
    }

    private static RunEvent parseOne(JsonNode json, String where) {
        return parseOne(json, where, null);
    }

    private static RunEvent parseOne(JsonNode json, String where, String dataText) {
        if (!json.isObject()) {
            throw new MalformedRunEventException("Expected " + where + " to be an object, but found " + json);
        }
        EventJson event = new EventJson(json, where);
        RunEventType type = RunEventType.of(event.requiredText("type"));
        String described = where + " (" + type.wireName() + ")";
        EventJson fields = new EventJson(json, described);
        long seq = fields.requiredNumber("seq");
        Instant at = Instant.ofEpochMilli(fields.requiredNumber("at"));
        EventHeader header = new EventHeader(seq, at, fields.text("node"), fields.text("token"), data(json, described),
                dataText);
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
