package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;

class ConfiguredPasswordTests {

    private final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();

    @Test
    void keepsEncodedPasswordsAsConfigured() {
        String bcrypt = encoder.encode("s3cret");

        assertThat(new ConfiguredPassword("{noop}s3cret").hash(null, encoder)).isEqualTo("{noop}s3cret");
        assertThat(new ConfiguredPassword(bcrypt).hash("{noop}other", encoder)).isEqualTo(bcrypt);
    }

    @Test
    void hashesPlainPasswordsWithBcrypt() {
        String hash = new ConfiguredPassword("s3cret").hash(null, encoder);

        assertThat(hash).startsWith("{bcrypt}");
        assertThat(encoder.matches("s3cret", hash)).isTrue();
    }

    @Test
    void keepsTheStoredBcryptHashWhileThePlainPasswordStillMatches() {
        String stored = encoder.encode("s3cret");

        assertThat(new ConfiguredPassword("s3cret").hash(stored, encoder)).isEqualTo(stored);
    }

    @Test
    void rehashesWhenThePlainPasswordChangedOrWasStoredUnhashed() {
        String stored = encoder.encode("old");

        assertThat(new ConfiguredPassword("new").hash(stored, encoder)).isNotEqualTo(stored).startsWith("{bcrypt}");
        assertThat(new ConfiguredPassword("s3cret").hash("{noop}s3cret", encoder)).startsWith("{bcrypt}");
    }

    @Test
    void treatsUnknownBracePrefixAsPartOfAPlainPassword() {
        assertThat(new ConfiguredPassword("{curly}pass").isEncoded()).isFalse();
        assertThat(new ConfiguredPassword("{bcrypt}").isEncoded()).isFalse();
    }
}
