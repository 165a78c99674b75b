package io.tokenflow.security;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** An API token as its owner may see it later: everything but the secret. Optional instants are {@code null}. */
public record ApiTokenSummary(UUID id, String name, String tenant, List<String> scopes, Instant createdAt,
                              Instant expiresAt, Instant lastUsedAt, Instant revokedAt) {

    static ApiTokenSummary of(ApiToken token) {
        return new ApiTokenSummary(token.id(), token.name(), token.tenant(),
                token.scopes().stream().map(Scope::value).toList(), token.createdAt(), token.expiresAt(),
                token.lastUsedAt(), token.revokedAt());
    }
}
