package io.tokenflow.security;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The answer to {@code POST /api/v1/tokens}: the only response that ever carries the secret. */
record CreatedToken(UUID id, String name, List<String> scopes, Instant createdAt, Instant expiresAt, String secret) {

    static CreatedToken of(IssuedToken issued) {
        List<String> scopes = issued.scopes().stream().sorted().map(Scope::value).toList();
        return new CreatedToken(issued.id(), issued.name(), scopes, issued.createdAt(), issued.expiresAt(),
                issued.secret());
    }
}
