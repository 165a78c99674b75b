package io.tokenflow.security;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Turns a presented secret into an authentication: the token must be known, not revoked, not expired and owned by an
 * enabled user; its scopes are cut down to what the owner's roles allow today. Records the use when stale.
 */
@Component
class ApiTokenVerifier {

    private final ApiTokenRepository tokens;
    private final UserAccountRepository users;
    private final SecuritySettings settings;
    private final Clock clock;

    ApiTokenVerifier(ApiTokenRepository tokens, UserAccountRepository users, SecuritySettings settings,
                     Clock clock) {
        this.tokens = tokens;
        this.users = users;
        this.settings = settings;
        this.clock = clock;
    }

    @Transactional
    public ApiTokenAuthentication verify(ApiTokenSecret secret) {
        ApiToken token = find(secret).orElseThrow(() -> new InvalidApiTokenException(
                "Expected a known API token, but the bearer token matches none"));
        Instant now = clock.instant();
        if (token.isRevoked()) {
            throw new InvalidApiTokenException("Expected an active API token, but token " + token.id()
                    + " was revoked at " + token.revokedAt());
        }
        if (token.isExpiredAt(now)) {
            throw new InvalidApiTokenException("Expected an unexpired API token, but token " + token.id()
                    + " expired at " + token.expiresAt());
        }
        UserAccount owner = users.findById(token.owner()).filter(UserAccount::isEnabled).orElseThrow(() ->
                new InvalidApiTokenException("Expected the owner '" + token.owner() + "' of token " + token.id()
                        + " to be an enabled user, but they are not"));
        recordUse(token, now);
        return ApiTokenAuthentication.verified(owner.username(), token.id(), effectiveScopes(token, owner));
    }

    private Optional<ApiToken> find(ApiTokenSecret secret) {
        return secret.hasPrefix() ? tokens.findByTokenHash(secret.hash()) : Optional.empty();
    }

    private void recordUse(ApiToken token, Instant now) {
        if (token.isLastUseStale(now, settings.tokens().lastUsedResolution())) {
            tokens.recordUse(token.id(), now, now.minus(settings.tokens().lastUsedResolution()));
        }
    }

    private static Set<Scope> effectiveScopes(ApiToken token, UserAccount owner) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        scopes.addAll(token.scopes());
        scopes.retainAll(Role.scopesAllowedFor(owner.roles()));
        return scopes;
    }
}
