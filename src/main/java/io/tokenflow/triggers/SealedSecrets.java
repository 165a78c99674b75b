package io.tokenflow.triggers;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.stereotype.Component;

import io.tokenflow.web.ConflictException;

/**
 * Seals HMAC webhook secrets for PostgreSQL with AES-256-GCM under {@code tokenflow.triggers.secret-key}: the server
 * needs those secrets themselves to check signatures, so a hash will not do. Sealed text: base64 of nonce + ciphertext.
 */
@Component
class SealedSecrets {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    SealedSecrets(TriggerSettings settings) {
        this.key = key(settings.secretKey());
    }

    String seal(String secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed = cipher(Cipher.ENCRYPT_MODE, nonce).doFinal(secret.getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce)
                .put(sealed).array());
    }

    String open(String sealedText) {
        byte[] all = Base64.getDecoder().decode(sealedText);
        byte[] nonce = Arrays.copyOf(all, NONCE_BYTES);
        byte[] opened = cipher(Cipher.DECRYPT_MODE, nonce).doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES);
        return new String(opened, StandardCharsets.UTF_8);
    }

    private Sealing cipher(int mode, byte[] nonce) {
        if (key == null) {
            throw new ConflictException("Expected tokenflow.triggers.secret-key (base64 of 32 bytes) to be set to keep "
                    + "HMAC webhook secrets, but it is not set");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            return cipher::doFinal;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Expected the JVM to provide AES-GCM, but it does not", e);
        }
    }

    private static SecretKeySpec key(String configured) {
        if (configured == null || configured.isBlank()) {
            return null;
        }
        byte[] bytes = Base64.getDecoder().decode(configured.trim());
        if (bytes.length != 32) {
            throw new IllegalArgumentException("Expected tokenflow.triggers.secret-key to be base64 of 32 bytes, but "
                    + "it holds " + bytes.length);
        }
        return new SecretKeySpec(bytes, "AES");
    }

    /** One AES-GCM operation; failures are broken invariants (a tampered or foreign sealed text). */
    @FunctionalInterface
    private interface Sealing {

        byte[] apply(byte[] input, int offset, int length) throws GeneralSecurityException;

        default byte[] doFinal(byte[] input) {
            return doFinal(input, 0, input.length);
        }

        default byte[] doFinal(byte[] input, int offset, int length) {
            try {
                return apply(input, offset, length);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("Expected a secret sealed under tokenflow.triggers.secret-key, but it "
                        + "does not open with it (was the key changed?)", e);
            }
        }
    }
}
