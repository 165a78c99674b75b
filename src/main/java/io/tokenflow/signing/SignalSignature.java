package io.tokenflow.signing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a completions-stream signal: HMAC-SHA256, keyed with a worker key's secret (its UTF-8 bytes), over
 * the signal's canonical form, as lowercase hex in the field {@code sig}. The canonical form takes every field but
 * {@code sig}, sorted by name (names are ASCII), each name and then its value written as its length in UTF-8 bytes, a
 * colon and the UTF-8 bytes: {@code 3:key6:wk_abc3:run36:…}. Lengths make it unambiguous (no value can pass for
 * another field), and every field is covered, so nothing can be added, dropped or altered. The Node and Python
 * versions in docs/worker-protocol.md compute the same bytes ({@code SignalSnippetsTests}).
 */
public final class SignalSignature {

    /** The field naming the worker key that signed. */
    public static final String KEY = "key";
    /** The field holding the epoch milliseconds of signing (compared with the stream entry's time). */
    public static final String SIGNED_AT = "signed_at";
    /** The field holding the signature. */
    public static final String SIG = "sig";

    private static final ThreadLocal<Mac> MACS = ThreadLocal.withInitial(SignalSignature::newMac);

    private SignalSignature() {
    }

    /** The signature of the fields (all but {@code sig}) under the secret. */
    public static String sign(String secret, Map<String, String> fields) {
        Mac mac = MACS.get();
        try {
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected an HMAC-SHA256 key, but the JVM refused it", e);
        }
        return HexFormat.of().formatHex(mac.doFinal(canonical(fields)));
    }

    /** Whether {@code sig} is the fields' signature under the secret (compared in constant time). */
    public static boolean matches(String secret, Map<String, String> fields, String sig) {
        return MessageDigest.isEqual(sign(secret, fields).getBytes(StandardCharsets.US_ASCII),
                sig.getBytes(StandardCharsets.UTF_8));
    }

    /** The canonical form's bytes: see the class comment. */
    static byte[] canonical(Map<String, String> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        new TreeMap<>(fields).forEach((name, value) -> {
            if (!name.equals(SIG)) {
                write(out, name);
                write(out, value);
            }
        });
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
        out.write(':');
        out.writeBytes(bytes);
    }

    private static Mac newMac() {
        try {
            return Mac.getInstance("HmacSHA256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected the JVM to provide HmacSHA256, but it does not", e);
        }
    }
}
