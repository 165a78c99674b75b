package io.tokenflow.security;

import java.security.SecureRandom;
import java.util.Base64;

import org.springframework.stereotype.Component;

/** Random secrets: generated passwords and API token secrets. */
@Component
class SecretGenerator {

    private static final String PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final int PASSWORD_LENGTH = 24;
    private static final int TOKEN_BYTES = 32;

    private final SecureRandom random = new SecureRandom();

    /** 24 letters and digits (about 140 bits), without look-alikes, so it can be copied by double-click. */
    String password() {
        StringBuilder password = new StringBuilder(PASSWORD_LENGTH);
        for (int i = 0; i < PASSWORD_LENGTH; i++) {
            password.append(PASSWORD_ALPHABET.charAt(random.nextInt(PASSWORD_ALPHABET.length())));
        }
        return password.toString();
    }

    ApiTokenSecret apiTokenSecret() {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        return new ApiTokenSecret(ApiTokenSecret.PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }
}
