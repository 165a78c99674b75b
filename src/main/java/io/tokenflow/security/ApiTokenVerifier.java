package io.tokenflow.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.UUID;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.tokenflow.security.CredentialCache.VerifiedToken;
import io.tokenflow.web.Outages;

/**
 * Turns a presented secret into an authentication: the token must be known, not revoked, not expired and owned by an
 * enabled user; its scopes are cut down to what the owner's roles allow. What PostgreSQL says is kept in the
 * {@link CredentialCache} for its TTL. Records the use when stale, at most once per {@code last-used-resolution} and
 * token on this instance; a use that cannot be written (PostgreSQL away) is not recorded and fails nothing.
 */
@Component
class ApiTokenVerifier {

    private static final Log log = LogFactory.getLog(ApiTokenVerifier.class);

    private final ApiTokenRepository tokens;
    private final UserAccountRepository users;
    private final CredentialCache cache;
    private final Duration useResolution;
    private final Cache<UUID, Instant> recentUses;
    private final Clock clock;

    ApiTokenVerifier(ApiTokenRepository tokens, UserAccountRepository users, CredentialCache cache,
                     SecuritySettings settings, Clock clock) {
        this.tokens = tokens;
        this.users = users;
        this.cache = cache;
        this.useResolution = settings.tokens().lastUsedResolution();
        this.recentUses = Caffeine.newBuilder().expireAfterWrite(useResolution).maximumSize(10_000).build();
        this.clock = clock;
    }

    public ApiTokenAuthentication verify(ApiTokenSecret secret) {
        if (!secret.hasPrefix()) {
            throw unknown();
        }
        VerifiedToken token = cache.token(secret.hash(), this::load);
        Instant now = clock.instant();
        if (token.isExpiredAt(now)) {
            throw new InvalidApiTokenException("Expected an unexpired API token, but token " + token.id()
                    + " expired at " + token.expiresAt());
        }
        recordUse(token, now);
        return ApiTokenAuthentication.verified(token.owner(), token.id(), token.scopes(), token.tenant());
    }

    private VerifiedToken load(String hash) {
        ApiToken token = tokens.findByTokenHash(hash).orElseThrow(ApiTokenVerifier::unknown);
        if (token.isRevoked()) {
            throw new InvalidApiTokenException("Expected an active API token, but token " + token.id()
                    + " was revoked at " + token.revokedAt());
        }
        UserAccount owner = users.findById(token.owner()).filter(UserAccount::isEnabled).orElseThrow(() ->
                new InvalidApiTokenException("Expected the owner '" + token.owner() + "' of token " + token.id()
                        + " to be an enabled user, but they are not"));
        if (!owner.tenants().contains(token.tenant())) {
            throw new InvalidApiTokenException("Expected the owner '" + token.owner() + "' of token " + token.id()
                    + " to belong to its tenant '" + token.tenant() + "', but they no longer do");
        }
        return new VerifiedToken(token.id(), owner.username(), effectiveScopes(token, owner), token.expiresAt(),
                token.lastUsedAt(), token.tenant());
    }

    private void recordUse(VerifiedToken token, Instant now) {
        if (!token.isLastUseStale(now, useResolution) || recentUses.asMap().putIfAbsent(token.id(), now) != null) {
            return;
        }
        try {
            tokens.recordUse(token.id(), now, now.minus(useResolution));
        } catch (RuntimeException e) {
            Outages.Outage outage = Outages.of(e).orElseThrow(() -> e);
            log.debug("Did not record the use of token " + token.id() + ": " + outage.detail());
        }
    }

    private static InvalidApiTokenException unknown() {
        return new InvalidApiTokenException("Expected a known API token, but the bearer token matches none");
    }

    private static Set<Scope> effectiveScopes(ApiToken token, UserAccount owner) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        scopes.addAll(token.scopes());
        scopes.retainAll(Role.scopesAllowedFor(owner.roles()));
        return scopes;
    }
}
