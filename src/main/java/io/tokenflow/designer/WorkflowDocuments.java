package io.tokenflow.designer;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.stereotype.Component;

import io.tokenflow.web.RequestJson;
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

    /** Parses what a user sent, by the rules of every API body ({@link RequestJson}). */
    public JsonNode parse(String text) {
        return RequestJson.parse(text);
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
