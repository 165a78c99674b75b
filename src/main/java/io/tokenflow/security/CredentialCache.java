package io.tokenflow.security;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.stereotype.Component;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.tokenflow.web.Outages;

/**
 * What requests authenticate against, kept in memory for {@code tokenflow.security.credential-cache-ttl}
 * (Caffeine): verified API tokens by the hash of their secret, and people's accounts by username. A caller seen
 * within the TTL costs no database round trip and stays authenticated while PostgreSQL is away; one that is not
 * cached while it is away is refused with an {@link InternalAuthenticationServiceException} naming the outage (the
 * API answers 503, never 401). Revoking a token evicts it here at once; another instance notices within the TTL.
 *
 * <p>Accounts are kept as values, not as {@code UserDetails}: the provider erases the password of the
 * {@code UserDetails} it authenticated, which would break the next sign-in from a cache of them.
 */
@Component
class CredentialCache {

    private static final int MAX_ENTRIES = 10_000;

    private final Cache<String, VerifiedToken> tokens;
    private final Cache<String, KnownUser> users;

    CredentialCache(SecuritySettings settings) {
        this.tokens = Caffeine.newBuilder().expireAfterWrite(settings.credentialCacheTtl()).maximumSize(MAX_ENTRIES)
                .build();
        this.users = Caffeine.newBuilder().expireAfterWrite(settings.credentialCacheTtl()).maximumSize(MAX_ENTRIES)
                .build();
    }

    /** The token with this secret hash, verified by {@code load} unless cached; what {@code load} throws is thrown. */
    VerifiedToken token(String hash, Function<String, VerifiedToken> load) {
        return tokens.get(hash, missing -> fromDatabase(() -> load.apply(missing)));
    }

    /** The account named so, read by {@code load} unless cached; what {@code load} throws is thrown. */
    KnownUser user(String username, Function<String, KnownUser> load) {
        return users.get(username, missing -> fromDatabase(() -> load.apply(missing)));
    }

    /** Forgets a token at once (revoked). */
    void forgetToken(String hash) {
        tokens.invalidate(hash);
    }

    /** Forgets every token and account, as if the TTL had passed. */
    void forgetAll() {
        tokens.invalidateAll();
        users.invalidateAll();
    }

    private static <T> T fromDatabase(Supplier<T> lookup) {
        try {
            return lookup.get();
        } catch (RuntimeException e) {
            Outages.Outage outage = Outages.of(e).orElseThrow(() -> e);
            throw new InternalAuthenticationServiceException("Expected to check the credentials, which are not "
                    + "cached, but " + outage.store() + " is unreachable", e);
        }
    }

    /**
     * An API token found active with an enabled owner when it was loaded.
     *
     * @param scopes     the token's scopes that the owner's roles allowed then
     * @param lastUsedAt the use recorded in PostgreSQL then, or {@code null}
     */
    record VerifiedToken(UUID id, String owner, Set<Scope> scopes, Instant expiresAt, Instant lastUsedAt) {

        VerifiedToken {
            scopes = Set.copyOf(scopes);
        }

        boolean isExpiredAt(Instant now) {
            return expiresAt != null && !now.isBefore(expiresAt);
        }

        /** Whether a use at {@code now} is worth writing: {@code last_used_at} is older than {@code resolution}. */
        boolean isLastUseStale(Instant now, Duration resolution) {
            return lastUsedAt == null || lastUsedAt.isBefore(now.minus(resolution));
        }
    }

    /** A person's account as the {@code users} table held it; roles as authorities ({@code ROLE_…}). */
    record KnownUser(String username, String passwordHash, Set<String> authorities, boolean enabled) {

        KnownUser {
            authorities = Set.copyOf(authorities);
        }
    }
}
