package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.security.authentication.InternalAuthenticationServiceException;

import io.tokenflow.security.CredentialCache.VerifiedToken;

class CredentialCacheTests {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final VerifiedToken TOKEN = new VerifiedToken(UUID.randomUUID(), "ada", Set.of(Scope.RUNS_READ),
            NOW.plusSeconds(60), null, "default");

    private final AtomicInteger loads = new AtomicInteger();
    private final Function<String, VerifiedToken> database = hash -> {
        loads.incrementAndGet();
        return TOKEN;
    };

    @Test
    void checksATokenOnceWithinTheTtl() {
        CredentialCache cache = cache(Duration.ofMinutes(1));

        cache.token("hash", database);
        assertThat(cache.token("hash", database)).isEqualTo(TOKEN);

        assertThat(loads).hasValue(1);
    }

    @Test
    void checksEveryTimeWithAZeroTtl() {
        CredentialCache cache = cache(Duration.ZERO);

        cache.token("hash", database);
        cache.token("hash", database);

        assertThat(loads).hasValue(2);
    }

    @Test
    void checksARevokedTokenAgainAtOnce() {
        CredentialCache cache = cache(Duration.ofMinutes(1));
        cache.token("hash", database);

        cache.forgetToken("hash");
        cache.token("hash", database);

        assertThat(loads).hasValue(2);
    }

    @Test
    void namesAnUnreachableDatabaseAndLetsRefusalsThrough() {
        CredentialCache cache = cache(Duration.ofMinutes(1));

        assertThatThrownBy(() -> cache.token("hash", hash -> {
            throw new CannotGetJdbcConnectionException("Connection refused");
        })).isInstanceOf(InternalAuthenticationServiceException.class)
                .hasMessage("Expected to check the credentials, which are not cached, but PostgreSQL is unreachable");
        InvalidApiTokenException refused = new InvalidApiTokenException("Expected a known API token, but none");
        assertThatThrownBy(() -> cache.token("hash", hash -> {
            throw refused;
        })).isSameAs(refused);
        assertThat(cache.token("hash", database)).isEqualTo(TOKEN);
    }

    @Test
    void takesACredentialAsLastVerifiedWhenItsTtlPassedWhilePostgresqlIsUnreachable() {
        CredentialCache cache = cache(Duration.ofMinutes(1));
        cache.token("hash", database);
        cache.forgetAll();

        assertThat(cache.token("hash", hash -> {
            throw new CannotGetJdbcConnectionException("Connection refused");
        })).isEqualTo(TOKEN);
        cache.forgetToken("hash");
        assertThatThrownBy(() -> cache.token("hash", hash -> {
            throw new CannotGetJdbcConnectionException("Connection refused");
        })).as("a revoked token is not kept for an outage").isInstanceOf(InternalAuthenticationServiceException.class);
        InvalidApiTokenException refused = new InvalidApiTokenException("Expected a known API token, but none");
        cache.token("other", database);
        cache.forgetAll();
        assertThatThrownBy(() -> cache.token("other", hash -> {
            throw refused;
        })).as("a refusal by a database that answers is never overruled").isSameAs(refused);
    }

    @Test
    void expiresAtItsExpiryInstantAndFindsAnUnusedTokenStale() {
        assertThat(TOKEN.isExpiredAt(NOW.plusSeconds(59))).isFalse();
        assertThat(TOKEN.isExpiredAt(NOW.plusSeconds(60))).isTrue();
        assertThat(new VerifiedToken(UUID.randomUUID(), "ada", Set.of(), null, null, "default")
                .isExpiredAt(NOW.plus(Duration.ofDays(10_000)))).isFalse();
        assertThat(TOKEN.isLastUseStale(NOW, Duration.ofMinutes(1))).isTrue();
        assertThat(new VerifiedToken(UUID.randomUUID(), "ada", Set.of(), null, NOW.minusSeconds(30), "default")
                .isLastUseStale(NOW, Duration.ofMinutes(1))).isFalse();
    }

    private static CredentialCache cache(Duration ttl) {
        return new CredentialCache(new SecuritySettings(null, null, ttl));
    }
}
