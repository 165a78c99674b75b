package io.tokenflow.designer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.stereotype.Component;

import io.tokenflow.web.BadRequestException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads and writes workflow documents: strict parsing of what users send (duplicate members are refused, so no
 * part of a document is silently dropped), and a content hash over a canonical form (members sorted).
 */
@Component
public class WorkflowDocuments {

    private final JsonMapper strict = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    public JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            throw new BadRequestException("Expected a JSON document in the request body, but it is empty", "");
        }
        try {
            return strict.readTree(text);
        } catch (JacksonException e) {
            var location = e.getLocation();
            String where = location == null ? "" : " (line " + location.getLineNr() + ", column "
                    + location.getColumnNr() + ")";
            throw new BadRequestException("Expected a well-formed JSON document, but " + e.getOriginalMessage() + where, "");
        }
    }

    /** Parses JSON the application itself stored. */
    public JsonNode read(String stored) {
        return stored == null ? null : strict.readTree(stored);
    }

    public String write(Object value) {
        return strict.writeValueAsString(value);
    }

    public JsonNode toTree(Object value) {
        return strict.valueToTree(value);
    }

    public String contentHash(JsonNode document) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            byte[] digest = sha256.digest(strict.writeValueAsString(canonical(document)).getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected SHA-256 in every JVM", e);
        }
    }

    private static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            node.properties().forEach(entry -> sorted.put(entry.getKey(), canonical(entry.getValue())));
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            sorted.forEach(copy::set);
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(item -> copy.add(canonical(item)));
            return copy;
        }
        return node;
    }
}
