package io.tokenflow.security;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * A freshly issued API token. {@code secret} is the only copy there will ever be: show it once, never store it.
 *
 * @param expiresAt {@code null} when the token does not expire
 */
public record IssuedToken(UUID id, String name, String owner, Set<Scope> scopes, Instant createdAt,
                          Instant expiresAt, String secret) {

    public IssuedToken {
        scopes = Set.copyOf(scopes);
    }

    @Override
    public String toString() {
        return "IssuedToken[id=" + id + ", name=" + name + ", owner=" + owner + ", scopes=" + scopes + "]";
    }
}
