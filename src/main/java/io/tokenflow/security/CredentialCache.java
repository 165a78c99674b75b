package io.tokenflow.security;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.security.authentication.InternalAuthenticationServiceException;
import org.springframework.stereotype.Component;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.tokenflow.web.Outages;

/**
 * What requests authenticate against, kept in memory for {@code tokenflow.security.credential-cache-ttl}
 * (Caffeine): verified API tokens by the hash of their secret, and people's accounts by username. A caller seen
 * within the TTL costs no database round trip. While PostgreSQL is unreachable, a credential whose TTL has passed is
 * taken as it was last verified, within {@link #LAST_KNOWN} (a token cannot be revoked, nor a person disabled, while
 * PostgreSQL is away: both are written there), so an outage longer than the TTL does not sign everyone out; one
 * never verified is refused with an {@link InternalAuthenticationServiceException} naming the outage (the API
 * answers 503, never 401). Revoking a token evicts it here at once; another instance notices within the TTL (once
 * PostgreSQL answers again, for a revocation just before an outage).
 *
 * <p>Accounts are kept as values, not as {@code UserDetails}: the provider erases the password of the
 * {@code UserDetails} it authenticated, which would break the next sign-in from a cache of them.
 */
@Component
class CredentialCache {

    private static final int MAX_ENTRIES = 10_000;
    /** How long a verified credential is kept to be used while PostgreSQL is unreachable. */
    static final Duration LAST_KNOWN = Duration.ofDays(1);

    private final Cache<String, VerifiedToken> tokens;
    private final Cache<String, KnownUser> users;
    private final Cache<String, VerifiedToken> lastKnownTokens;
    private final Cache<String, KnownUser> lastKnownUsers;

    CredentialCache(SecuritySettings settings) {
        Duration ttl = settings.credentialCacheTtl();
        this.tokens = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(MAX_ENTRIES).build();
        this.users = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(MAX_ENTRIES).build();
        // with the cache off, nothing is kept for an outage either
        Duration kept = ttl.isZero() ? Duration.ZERO : LAST_KNOWN;
        this.lastKnownTokens = Caffeine.newBuilder().expireAfterWrite(kept).maximumSize(MAX_ENTRIES).build();
        this.lastKnownUsers = Caffeine.newBuilder().expireAfterWrite(kept).maximumSize(MAX_ENTRIES).build();
    }

    /** The token with this secret hash, verified by {@code load} unless cached; what {@code load} throws is thrown. */
    VerifiedToken token(String hash, Function<String, VerifiedToken> load) {
        return tokens.get(hash, missing -> fromDatabase(missing, load, lastKnownTokens));
    }

    /** The account named so, read by {@code load} unless cached; what {@code load} throws is thrown. */
    KnownUser user(String username, Function<String, KnownUser> load) {
        return users.get(username, missing -> fromDatabase(missing, load, lastKnownUsers));
    }

    /** Forgets a token at once (revoked). */
    void forgetToken(String hash) {
        tokens.invalidate(hash);
        lastKnownTokens.invalidate(hash);
    }

    /** Forgets every token and account, as if the TTL had passed (what was last verified stays for an outage). */
    void forgetAll() {
        tokens.invalidateAll();
        users.invalidateAll();
    }

    private static <T> T fromDatabase(String key, Function<String, T> load, Cache<String, T> lastKnown) {
        try {
            T verified = load.apply(key);
            if (verified != null) {
                lastKnown.put(key, verified);
            }
            return verified;
        } catch (RuntimeException e) {
            Outages.Outage outage = Outages.of(e).orElseThrow(() -> e);
            T known = lastKnown.getIfPresent(key);
            if (known != null) {
                return known;
            }
            throw new InternalAuthenticationServiceException("Expected to check the credentials, which are not "
                    + "cached, but " + outage.store() + " is unreachable", e);
        }
    }

    /**
     * An API token found active with an enabled owner when it was loaded.
     *
     * @param scopes     the token's scopes that the owner's roles allowed then
     * @param lastUsedAt the use recorded in PostgreSQL then, or {@code null}
     * @param tenant     the tenant the token acts in (its owner belonged to it then)
     */
    record VerifiedToken(UUID id, String owner, Set<Scope> scopes, Instant expiresAt, Instant lastUsedAt,
                         String tenant) {

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

    /**
     * A person's account as the {@code users} table held it; roles as authorities ({@code ROLE_…}).
     *
     * @param tenants the tenants the person belongs to, in the order the account lists them
     */
    record KnownUser(String username, String passwordHash, Set<String> authorities, boolean enabled,
                     List<String> tenants) {

        KnownUser {
            authorities = Set.copyOf(authorities);
            tenants = List.copyOf(tenants);
        }
    }
}
