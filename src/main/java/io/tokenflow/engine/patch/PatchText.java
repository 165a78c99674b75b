package io.tokenflow.engine.patch;

import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads patch JSON text strictly. An operation object with a repeated member (such as two "op"s) is
 * ambiguous, and RFC 6902 §4 / RFC 8259 §4 leave its meaning open; a tree cannot show the repetition
 * (Jackson keeps the last one), so it is rejected here while parsing, with the pointer of the repeated member.
 */
final class PatchText {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** How Jackson's STRICT_DUPLICATE_DETECTION words its error ("Duplicate Object property \"op\""). */
    private static final String DUPLICATE_MESSAGE_START = "Duplicate ";

    private PatchText() {
    }

    static JsonNode read(String json) {
        JsonNode document;
        try {
            document = STRICT.readTree(json);
        } catch (StreamReadException e) {
            throw invalid(e, pathOf(e));
        } catch (JacksonException e) {
            throw invalid(e, "");
        }
        if (document == null || document.isMissingNode()) {
            throw new InvalidPatchException("Expected a JSON Patch document, but the text is empty", -1, "");
        }
        return document;
    }

    private static String pathOf(StreamReadException e) {
        JsonParser parser = e.processor();
        return parser == null ? "" : parser.streamReadContext().pathAsPointer().toString();
    }

    private static InvalidPatchException invalid(JacksonException e, String pointer) {
        String reason = Objects.toString(e.getOriginalMessage(), e.getClass().getSimpleName());
        String message = reason.startsWith(DUPLICATE_MESSAGE_START)
                ? "Expected every object in the patch to name each member once, but " + Wording.quote(pointer)
                        + " is repeated"
                : "Expected a JSON Patch document in valid JSON, but " + reason;
        return new InvalidPatchException(message, operationIndex(pointer), pointer, e);
    }

    private static int operationIndex(String pointer) {
        int end = pointer.indexOf('/', 1);
        String first = pointer.isEmpty() ? "" : pointer.substring(1, end < 0 ? pointer.length() : end);
        return !first.isEmpty() && first.length() <= 9 && first.chars().allMatch(Character::isDigit)
                ? Integer.parseInt(first) : -1;
    }
}
