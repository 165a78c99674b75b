package io.tokenflow.security;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /api/v1/tokens}.
 *
 * @param expiresInDays optional; without it (and without {@code expiresAt}) the token does not expire
 * @param expiresAt     optional, instead of {@code expiresInDays}: when the token expires (an RFC 3339 instant)
 */
record TokenRequest(String name, List<String> scopes, Integer expiresInDays, Instant expiresAt) {

    /** The members a token request may have; any other is refused. */
    static final java.util.Set<String> MEMBERS = java.util.Set.of("name", "scopes", "expiresInDays", "expiresAt");

    /**
     * The requested scopes, each known and, when the caller is itself a token, held by that token: a token never
     * mints a token stronger than itself. Whether the owner's roles allow them is checked on issue.
     */
    Set<Scope> scopesFor(Caller caller) {
        Set<Scope> parsed = EnumSet.noneOf(Scope.class);
        for (String value : scopes == null ? List.<String>of() : scopes) {
            Scope scope = Scope.fromValue(value).orElseThrow(() -> new TokenRequestRejectedException(
                    "Expected scopes among " + Scope.allValues() + ", but got '" + value + "'"));
            if (caller.isToken() && !caller.can(scope)) {
                throw new TokenRequestRejectedException("Expected scopes that the calling token holds "
                        + caller.scopes() + ", but '" + scope + "' is not among them");
            }
            parsed.add(scope);
        }
        return parsed;
    }

    /** The lifetime {@code expiresInDays} gives, or {@code null} (no expiry, or one given by {@code expiresAt}). */
    Duration lifetime() {
        if (expiresInDays != null && expiresAt != null) {
            throw new TokenRequestRejectedException("Expected expiresInDays or expiresAt, but got both");
        }
        return expiresInDays == null ? null : Duration.ofDays(expiresInDays);
    }
}
