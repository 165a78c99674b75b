package io.tokenflow.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.tokenflow.signing.CreatedWorkerKey;
import io.tokenflow.signing.SignalSignature;
import io.tokenflow.signing.WorkerKeys;

/**
 * A worker key as an external worker holds it (id and secret), signing signals as docs/worker-protocol.md §6 says:
 * {@code key}, {@code signed_at} (now) and {@code sig} added to the fields. {@link #of} makes one per application
 * context (through its {@link WorkerKeys}) and keeps it.
 */
public record SigningKey(String id, String secret) {

    private static final Map<WorkerKeys, SigningKey> MADE = new ConcurrentHashMap<>();

    /** The tests' key of this application context, made on first use. */
    public static SigningKey of(WorkerKeys keys) {
        return MADE.computeIfAbsent(keys, made -> {
            CreatedWorkerKey key = made.create("tests", null, "tests");
            return new SigningKey(key.id(), key.secret());
        });
    }

    /** The fields, signed now. */
    public Map<String, String> signed(Map<String, String> fields) {
        return signedAt(fields, System.currentTimeMillis());
    }

    /** The fields, signed as if at {@code epochMillis}. */
    public Map<String, String> signedAt(Map<String, String> fields, long epochMillis) {
        Map<String, String> signed = new LinkedHashMap<>(fields);
        signed.put(SignalSignature.KEY, id);
        signed.put(SignalSignature.SIGNED_AT, Long.toString(epochMillis));
        signed.put(SignalSignature.SIG, SignalSignature.sign(secret, signed));
        return signed;
    }
}
