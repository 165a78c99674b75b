package io.tokenflow.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The secret a client sends as {@code Authorization: Bearer tf_…}; only its SHA-256 {@link #hash()} is stored. */
record ApiTokenSecret(String value) {

    static final String PREFIX = "tf_";

    /** Hex SHA-256 of the whole secret: the secret has 256 random bits, so a fast unsalted hash is enough. */
    String hash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected the JVM to provide SHA-256, but it does not", e);
        }
    }

    boolean hasPrefix() {
        return value.startsWith(PREFIX);
    }

    @Override
    public String toString() {
        return "ApiTokenSecret[" + PREFIX + "…]";
    }
}
