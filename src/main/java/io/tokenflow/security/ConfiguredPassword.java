package io.tokenflow.security;

import java.util.regex.Pattern;

import org.springframework.security.crypto.password.PasswordEncoder;

/** A password from configuration: already encoded ({@code {bcrypt}…}, {@code {noop}…}) or plain text to hash. */
record ConfiguredPassword(String value) {

    private static final Pattern ENCODED = Pattern.compile("^\\{(noop|bcrypt|pbkdf2|scrypt|argon2)(@[^}]*)?}.+");
    private static final String BCRYPT = "{bcrypt}";

    boolean isEncoded() {
        return ENCODED.matcher(value).matches();
    }

    /**
     * The hash to store: encoded values as they are; a plain value keeps {@code currentHash} when that is a bcrypt
     * hash of it (so restarts do not rewrite it), otherwise it is hashed afresh.
     */
    String hash(String currentHash, PasswordEncoder encoder) {
        if (isEncoded()) {
            return value;
        }
        if (currentHash != null && currentHash.startsWith(BCRYPT) && encoder.matches(value, currentHash)) {
            return currentHash;
        }
        return encoder.encode(value);
    }

    @Override
    public String toString() {
        return "ConfiguredPassword[…]";
    }
}
