package io.tokenflow.cas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Content-addressed storage in PostgreSQL ({@code cas_objects}): content is stored once under its SHA-256 and
 * referenced as {@code cas://sha256:<hex>}. Storing the same content again is a no-op.
 */
@Component
public class CasStore {

    public static final String SCHEME = "cas://";
    private static final String JSON = "application/json";

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final Clock clock;

    CasStore(JdbcClient jdbc, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    /** Stores content and returns its reference, e.g. {@code cas://sha256:ab…}. */
    public String put(byte[] content, String mediaType) {
        String hash = "sha256:" + sha256(content);
        jdbc.sql("insert into cas_objects (hash, media_type, size_bytes, content, created_at) "
                        + "values (:hash, :type, :size, :content, :at) on conflict (hash) do nothing")
                .param("hash", hash).param("type", mediaType).param("size", content.length)
                .param("content", content).param("at", java.sql.Timestamp.from(clock.instant()))
                .update();
        return SCHEME + hash;
    }

    public String putJson(JsonNode value) {
        return put(json.writeValueAsBytes(value), JSON);
    }

    public Optional<byte[]> get(String reference) {
        return jdbc.sql("select content from cas_objects where hash = :hash")
                .param("hash", hashOf(reference)).query(byte[].class).optional();
    }

    /** The JSON stored under a reference; throws if there is none (a reference that was handed out always exists). */
    public JsonNode getJson(String reference) {
        byte[] content = get(reference).orElseThrow(() -> new IllegalStateException(
                "Expected content stored under " + reference + ", but there is none"));
        return json.readTree(content);
    }

    public static boolean isReference(String value) {
        return value != null && value.startsWith(SCHEME + "sha256:");
    }

    static String hashOf(String reference) {
        String hash = reference.startsWith(SCHEME) ? reference.substring(SCHEME.length()) : reference;
        if (!hash.matches("sha256:[0-9a-f]{64}")) {
            throw new IllegalArgumentException("Expected a reference cas://sha256:<64 hex digits>, but found " + reference);
        }
        return hash;
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected SHA-256 in every JVM", e);
        }
    }

}
