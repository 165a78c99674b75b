package io.tokenflow.web;

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
}
