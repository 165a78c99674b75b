package io.tokenflow.triggers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Each webhook trigger's secret, generated here (256 random bits) and shown once. Stored as its SHA-256 for
 * {@code auth: secret} (enough for 256 random bits), sealed ({@link SealedSecrets}) for {@code auth: hmac}.
 */
@Component
class TriggerSecrets {

    private static final String PREFIX = "whsec_";

    private final JdbcClient jdbc;
    private final SealedSecrets sealed;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    TriggerSecrets(JdbcClient jdbc, SealedSecrets sealed, Clock clock) {
        this.jdbc = jdbc;
        this.sealed = sealed;
        this.clock = clock;
    }

    /** Replaces the trigger's secret with a new one, which is returned: it cannot be read again. */
    String rotate(UUID workflowId, String triggerId, String auth, String rotatedBy) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        boolean hmac = "hmac".equals(auth);
        jdbc.sql("insert into trigger_secrets (workflow_id, trigger_id, auth, secret_sha256, secret_sealed, "
                        + "rotated_at, rotated_by) values (:workflow, :trigger, :auth, :hash, :sealed, :at, :by) on conflict "
                        + "(workflow_id, trigger_id) do update set auth = excluded.auth, secret_sha256 = "
                        + "excluded.secret_sha256, secret_sealed = excluded.secret_sealed, rotated_at = "
                        + "excluded.rotated_at, rotated_by = excluded.rotated_by")
                .param("workflow", workflowId).param("trigger", triggerId).param("auth", auth)
                .param("hash", hmac ? null : sha256(secret)).param("sealed", hmac ? sealed.seal(secret) : null)
                .param("at", Timestamp.from(clock.instant())).param("by", rotatedBy).update();
        return secret;
    }

    Optional<StoredSecret> find(UUID workflowId, String triggerId) {
        return jdbc.sql("select auth, secret_sha256, secret_sealed, rotated_at from trigger_secrets where workflow_id "
                        + "= :workflow and trigger_id = :trigger")
                .param("workflow", workflowId).param("trigger", triggerId)
                .query((rs, i) -> new StoredSecret(rs.getString("auth"), rs.getString("secret_sha256"),
                        rs.getString("secret_sealed"), rs.getTimestamp("rotated_at").toInstant()))
                .optional();
    }

    /** The secret of an {@code hmac} trigger, to sign with. */
    String open(StoredSecret secret) {
        return sealed.open(secret.sealed());
    }

    static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256, but it does not", e);
        }
    }

    /** A stored secret: {@code sha256} for auth {@code secret}, {@code sealed} for {@code hmac}. */
    record StoredSecret(String auth, String sha256, String sealed, Instant rotatedAt) {
    }
}
