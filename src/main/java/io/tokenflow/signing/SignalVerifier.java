package io.tokenflow.signing;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

/**
 * Checks the signature of each signal the coordinator reads from a completions stream (docs/worker-protocol.md §6),
 * before anything else is read from it. A refusal is a reason in words; the coordinator records it with the signal
 * and acknowledges it, so it never changes a run. Signals of kind {@code join} are exempt: route-completion.lua writes
 * them inside Redis, where no HMAC is at hand, and dispatching one changes nothing unless its token is in flight at
 * that join (dispatch-join.lua), so a forged one is refused there.
 */
@Component
public class SignalVerifier {

    private static final int MAX_NAME_LENGTH = 64;
    private static final int MAX_EPOCH_DIGITS = 15;

    private final WorkerKeys keys;
    private final SigningSettings settings;
    private final Clock clock;

    SignalVerifier(WorkerKeys keys, SigningSettings settings, Clock clock) {
        this.keys = keys;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Checks the signal written to Redis as entry {@code entryId}: refused with a reason, or passed, with the node
     * types its key may report on (null: every type; the caller checks the signal's node against them, as only it
     * knows the node's type).
     */
    public Verdict check(String entryId, Map<String, String> fields) {
        if ("join".equals(fields.get("kind"))) {
            return Verdict.PASSED;
        }
        String sig = fields.get(SignalSignature.SIG);
        String keyId = fields.get(SignalSignature.KEY);
        if (sig == null && keyId == null) {
            return settings.requireSignatures()
                    ? refused("Expected a signed signal (fields key, signed_at and sig: docs/worker-protocol.md "
                    + "§6), but it is unsigned")
                    : Verdict.PASSED;
        }
        if (sig == null || keyId == null) {
            return refused("Expected both key and sig on a signed signal, but " + (sig == null ? "sig" : "key")
                    + " is missing");
        }
        Optional<String> badName = fields.keySet().stream().filter(name -> !isFieldName(name)).findFirst();
        if (badName.isPresent()) {
            return refused("Expected field names of ASCII letters, digits and _ on a signed signal, but found '"
                    + abbreviated(badName.get()) + "'");
        }
        Optional<WorkerKey> key = keys.find(keyId);
        if (key.isEmpty()) {
            return refused("Expected key to name a worker key, but '" + abbreviated(keyId) + "' is unknown");
        }
        Instant written = Instant.ofEpochMilli(entryMillis(entryId));
        Instant now = clock.instant();
        if (!key.get().validFor(written, now, settings.maxAge())) {
            return refused("Expected a valid worker key, but " + keyId + " was revoked at " + key.get().revokedAt()
                    + " and this signal was written at " + written);
        }
        String signedAt = fields.get(SignalSignature.SIGNED_AT);
        if (signedAt == null || !isEpochMillis(signedAt)) {
            return refused("Expected signed_at to be the epoch milliseconds of signing, but found "
                    + (signedAt == null ? "none" : "'" + abbreviated(signedAt) + "'"));
        }
        long apart = Math.abs(written.toEpochMilli() - Long.parseLong(signedAt));
        if (apart > settings.maxAge().toMillis()) {
            return refused("Expected a signal written within " + settings.maxAge() + " of signing, but it was "
                    + "signed at " + Instant.ofEpochMilli(Long.parseLong(signedAt)) + " and written at " + written
                    + " (replayed, or the worker's clock is off)");
        }
        if (!SignalSignature.matches(key.get().secret(), fields, sig)) {
            return refused("Expected sig to be the HMAC-SHA256 of the signal under key " + keyId + ", but it does "
                    + "not match (forged, altered, or signed with another secret)");
        }
        return new Verdict(null, key.get().nodeTypes(), key.get().tenant());
    }

    /**
     * What {@link #check} found.
     *
     * @param refusal   why the signal is refused, or null when it passed
     * @param nodeTypes the node types its key may report on, or null for every type (or an unsigned signal)
     * @param tenant    the tenant whose runs its key may report on, or null for every tenant's (the built-in key, or
     *                  an unsigned signal)
     */
    public record Verdict(String refusal, java.util.Set<String> nodeTypes, String tenant) {

        /** Passed, with no node types named: an exempt or (allowed) unsigned signal. */
        static final Verdict PASSED = new Verdict(null, null, null);

        /** Why a signal of a run of {@code runTenant} is refused under this key's tenant, or null when it may pass. */
        public String refusalForTenant(String keyId, java.util.UUID run, String runTenant) {
            return tenant == null || tenant.equals(runTenant) ? null : "Expected key " + keyId + " to report on runs "
                    + "of tenant '" + tenant + "' only, but run " + run + " is another tenant's";
        }

        /** Why a signal of a node of {@code type} is refused under these node types, or null when it may pass. */
        public String refusalFor(String keyId, String node, String type) {
            return nodeTypes == null || nodeTypes.contains(type) ? null : "Expected key " + keyId + " to report on "
                    + "nodes of type " + String.join(", ", new java.util.TreeSet<>(nodeTypes)) + " only, but node '"
                    + node + "' is of type '" + type + "'";
        }
    }

    private static Verdict refused(String reason) {
        return new Verdict(reason, null, null);
    }

    private static long entryMillis(String entryId) {
        int dash = entryId.indexOf('-');
        return Long.parseLong(dash < 0 ? entryId : entryId.substring(0, dash));
    }

    private static boolean isFieldName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isEpochMillis(String text) {
        if (text.isEmpty() || text.length() > MAX_EPOCH_DIGITS) {
            return false;
        }
        return text.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    private static String abbreviated(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }
}
