package io.tokenflow.cas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.CurrentTenant;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Content-addressed storage in PostgreSQL ({@code cas_objects}): content is stored once under its SHA-256 and
 * referenced as {@code cas://sha256:<hex>}. Storing the same content again stores nothing more. Each tenant that
 * stored an object owns it ({@code cas_owners}); reads are limited to the objects of the tenant the thread acts in
 * ({@link CurrentTenant}: a request's), and the engine, acting for no one tenant, reads the references its runs
 * hold. So a tenant cannot read another's content even knowing its hash, nor have a worker name it as an output
 * ({@link #owns}).
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

    /** Stores content for a tenant and returns its reference, e.g. {@code cas://sha256:ab…}. */
    public String put(String tenant, byte[] content, String mediaType) {
        String hash = "sha256:" + sha256(content);
        jdbc.sql("insert into cas_objects (hash, media_type, size_bytes, content, created_at) "
                        + "values (:hash, :type, :size, :content, :at) on conflict (hash) do nothing")
                .param("hash", hash).param("type", mediaType).param("size", content.length)
                .param("content", content).param("at", java.sql.Timestamp.from(clock.instant()))
                .update();
        jdbc.sql("insert into cas_owners (tenant_id, hash) values (:tenant, :hash) on conflict do nothing")
                .param("tenant", tenant).param("hash", hash).update();
        return SCHEME + hash;
    }

    public String putJson(String tenant, JsonNode value) {
        return put(tenant, json.writeValueAsBytes(value), JSON);
    }

    /** The content under a reference, if the tenant this thread acts in stored it (any, on engine threads). */
    public Optional<byte[]> get(String reference) {
        return jdbc.sql("select o.content from cas_objects o where o.hash = :hash and (cast(:tenant as text) is null "
                        + "or exists (select 1 from cas_owners w where w.hash = o.hash and w.tenant_id = :tenant))")
                .param("hash", hashOf(reference)).param("tenant", CurrentTenant.orNull())
                .query(byte[].class).optional();
    }

    /** Whether the tenant stored content under the reference. */
    public boolean owns(String tenant, String reference) {
        return jdbc.sql("select exists (select 1 from cas_owners where tenant_id = :tenant and hash = :hash)")
                .param("tenant", tenant).param("hash", hashOf(reference)).query(Boolean.class).single();
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
