package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ApiTokenTests {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    @Test
    void keepsTheFirstRevocationTime() {
        ApiToken token = new ApiToken("ada", "default", "ci", Set.of(Scope.RUNS_READ), "hash", NOW, null);

        token.revoke(NOW.plusSeconds(1));
        token.revoke(NOW.plusSeconds(2));

        assertThat(token.isRevoked()).isTrue();
        assertThat(token.revokedAt()).isEqualTo(NOW.plusSeconds(1));
    }

    @Test
    void hashesTheWholeSecretWithSha256() {
        ApiTokenSecret secret = new ApiTokenSecret("tf_abc");

        assertThat(secret.hash()).isEqualTo("7025e4f82f2533fa7f9edd14aa906255f11823b78314bff9d044c88357d65883");
        assertThat(secret.toString()).doesNotContain("abc");
        assertThat(new SecretGenerator().apiTokenSecret().value()).startsWith("tf_").hasSize(46);
    }

    @Test
    void generatesLongAlphanumericPasswords() {
        String password = new SecretGenerator().password();

        assertThat(password).hasSizeGreaterThanOrEqualTo(20).matches("[A-Za-z0-9]+")
                .isNotEqualTo(new SecretGenerator().password());
    }
}
