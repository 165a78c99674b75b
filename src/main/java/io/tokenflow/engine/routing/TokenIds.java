package io.tokenflow.engine.routing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Deterministic token ids: an entry token's id derives from the run and node, a child's from its parent's id, the
 * target node and the loop iteration, a join token's from the run, node and iteration, a resumed run's from the
 * token it does again and the failure it resumes from. A duplicated completion thus
 * reproduces the same child ids, which the idempotent routing step absorbs. (Stream entry ids are never used: they
 * are unique only within one stream.)
 */
public final class TokenIds {

    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

    private TokenIds() {
    }

    public static String entry(String runId, String node) {
        return hash("entry", runId, node, "0");
    }

    public static String child(String parentTokenId, String target, int iteration) {
        return hash("child", parentTokenId, target, Integer.toString(iteration));
    }

    public static String join(String runId, String node, int iteration) {
        return hash("join", runId, node, Integer.toString(iteration));
    }

    /** The token a resumed run emits for work the failure at event {@code failedSeq} dropped or failed. */
    public static String resumed(String tokenId, long failedSeq) {
        return hash("resumed", tokenId, Long.toString(failedSeq));
    }

    /** The token of element {@code index} of the map a map node's token started. */
    public static String element(String mapTokenId, int index) {
        return hash("element", mapTokenId, Integer.toString(index));
    }

    /** The token of the compensator that undoes the work a completed token did. */
    public static String compensation(String completedTokenId) {
        return hash("compensate", completedTokenId);
    }

    private static String hash(String... parts) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                sha256.update(part.getBytes(StandardCharsets.UTF_8));
                sha256.update((byte) 0);
            }
            byte[] digest = sha256.digest();
            return BASE64.encodeToString(java.util.Arrays.copyOf(digest, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Expected SHA-256 in every JVM", e);
        }
    }
}
