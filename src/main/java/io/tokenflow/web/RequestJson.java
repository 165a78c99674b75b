package io.tokenflow.web;

import java.util.Set;
import java.util.TreeSet;

import io.tokenflow.engine.patch.JsonPointer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses the JSON body of an API request, with the same rules for every endpoint: malformed JSON and duplicate
 * members are refused (400: a member given twice would otherwise be silently dropped), and text or numbers
 * PostgreSQL cannot store as sent are refused by {@link StorableJson} (422 naming the pointer).
 */
public final class RequestJson {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private RequestJson() {
    }

    public static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw new BadRequestException("Expected a JSON document in the request body, but it is empty", "");
        }
        JsonNode document;
        try {
            document = STRICT.readTree(body);
        } catch (JacksonException e) {
            var location = e.getLocation();
            String where = location == null || location.getLineNr() < 0 ? "" : " (line " + location.getLineNr()
                    + ", column " + location.getColumnNr() + ")";
            throw new BadRequestException("Expected a well-formed JSON document, but "
                    + JsonWording.withoutJavaNames(e.getOriginalMessage()) + where, "");
        }
        StorableJson.check(document, "");
        return document;
    }

    /**
     * Parses a body that must be a JSON object of the given members only: a member the endpoint does not know is
     * refused naming it (Jackson would drop it silently: a misspelt {@code "scope"} would be ignored).
     */
    public static JsonNode object(String body, Set<String> members) {
        JsonNode document = parse(body);
        if (!document.isObject()) {
            throw new BadRequestException("Expected a JSON object with " + String.join(", ", new TreeSet<>(members))
                    + ", but found " + kind(document), "");
        }
        for (String member : document.propertyNames()) {
            if (!members.contains(member)) {
                throw new BadRequestException("Expected only " + String.join(", ", new TreeSet<>(members))
                        + ", but found '" + member + "'", "/" + JsonPointer.escape(member));
            }
        }
        return document;
    }

    /** A member of an object body that must be a string when given: its text, or {@code null} when absent or null. */
    public static String text(JsonNode body, String member) {
        JsonNode value = body.get(member);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new BadRequestException("Expected \"" + member + "\" to be a string, but found " + value,
                    "/" + JsonPointer.escape(member));
        }
        return value.asString();
    }

    /**
     * Parses a body that must be a JSON object of the given members only ({@link #object}) into {@code type}; a
     * member of the wrong kind is refused naming its pointer, in JSON's words.
     */
    public static <T> T bind(String body, Set<String> members, Class<T> type) {
        JsonNode document = object(body, members);
        try {
            return STRICT.treeToValue(document, type);
        } catch (JacksonException e) {
            throw new BadRequestException("Expected a request body of the documented form, but "
                    + JsonWording.withoutJavaNames(e.getOriginalMessage()), pointerOf(e));
        }
    }

    /** Where in the body a Jackson refusal points, as a JSON pointer. */
    public static String pointerOf(JacksonException jackson) {
        StringBuilder pointer = new StringBuilder();
        for (JacksonException.Reference reference : jackson.getPath()) {
            pointer.append('/').append(reference.getPropertyName() != null
                    ? JsonPointer.escape(reference.getPropertyName()) : String.valueOf(reference.getIndex()));
        }
        return pointer.toString();
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "true or false";
            case NULL -> "null";
            default -> "a value of another kind";
        };
    }
}
