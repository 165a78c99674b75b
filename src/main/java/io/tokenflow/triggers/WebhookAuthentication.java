package io.tokenflow.triggers;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

/**
 * Checks a webhook call against its trigger's secret: {@code auth: secret} wants {@code X-Tokenflow-Secret: <secret>},
 * {@code auth: hmac} wants {@code X-Tokenflow-Signature: sha256=<hex HMAC-SHA256 of the raw body>} (GitHub's scheme).
 * Both compare in constant time.
 */
@Component
class WebhookAuthentication {

    static final String SECRET_HEADER = "X-Tokenflow-Secret";
    static final String SIGNATURE_HEADER = "X-Tokenflow-Signature";
    private static final String SIGNATURE_PREFIX = "sha256=";

    private final TriggerSecrets secrets;

    WebhookAuthentication(TriggerSecrets secrets) {
        this.secrets = secrets;
    }

    /** @return why the call is refused, or empty when it is authentic */
    Optional<String> problem(Trigger trigger, Optional<TriggerSecrets.StoredSecret> stored, WebhookCall call) {
        if (stored.isEmpty()) {
            return Optional.of("Expected a secret issued for trigger '" + trigger.id() + "', but none was issued yet "
                    + "(POST /api/v1/workflows/{id}/triggers/" + trigger.id() + "/secret issues one)");
        }
        if (!stored.get().auth().equals(trigger.auth())) {
            return Optional.of("Expected a secret issued for auth '" + trigger.auth() + "', but the trigger's secret "
                    + "was issued for '" + stored.get().auth() + "'; issue a new one");
        }
        return "hmac".equals(trigger.auth()) ? signatureProblem(stored.get(), call) : secretProblem(stored.get(), call);
    }

    private static Optional<String> secretProblem(TriggerSecrets.StoredSecret stored, WebhookCall call) {
        String given = call.header(SECRET_HEADER);
        if (given == null) {
            return Optional.of("Expected the header " + SECRET_HEADER + ", but the call has none");
        }
        return equal(TriggerSecrets.sha256(given), stored.sha256()) ? Optional.empty()
                : Optional.of("Expected the trigger's secret in " + SECRET_HEADER + ", but it does not match");
    }

    private Optional<String> signatureProblem(TriggerSecrets.StoredSecret stored, WebhookCall call) {
        String given = call.header(SIGNATURE_HEADER);
        if (given == null || !given.startsWith(SIGNATURE_PREFIX)) {
            return Optional.of("Expected the header " + SIGNATURE_HEADER + ": sha256=<hex HMAC-SHA256 of the body>, "
                    + "but the call has " + (given == null ? "none" : "another form"));
        }
        String expected = SIGNATURE_PREFIX + hmac(secrets.open(stored), call.body());
        return equal(expected, given.toLowerCase()) ? Optional.empty()
                : Optional.of("Expected " + SIGNATURE_HEADER + " to be the HMAC-SHA256 of the body under the "
                        + "trigger's secret, but it does not match");
    }

    static String hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected the JVM to provide HmacSHA256, but it does not", e);
        }
    }

    private static boolean equal(String expected, String given) {
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }
}
