package io.tokenflow.security;

import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A bearer token of one person: one row of {@code api_tokens}. Holds the hash of its secret, never the secret. */
@Entity
@Table(name = "api_tokens")
class ApiToken {

    @Id
    private UUID id;

    @Column(nullable = false)
    private String name;

    @Column(nullable = false)
    private String owner;

    @Column(name = "token_hash", nullable = false)
    private String tokenHash;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb", nullable = false)
    private List<String> scopes;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "expires_at")
    private Instant expiresAt;

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    @Column(name = "tenant_id", nullable = false)
    private String tenant;

    protected ApiToken() {
    }

    ApiToken(String owner, String tenant, String name, Collection<Scope> scopes, String tokenHash, Instant now,
             Instant expiresAt) {
        this.id = UUID.randomUUID();
        this.tenant = tenant;
        this.owner = owner;
        this.name = name;
        this.scopes = scopes.isEmpty() ? List.of() : EnumSet.copyOf(scopes).stream().map(Scope::value).toList();
        this.tokenHash = tokenHash;
        this.createdAt = now;
        this.expiresAt = expiresAt;
    }

    void revoke(Instant now) {
        if (revokedAt == null) {
            revokedAt = now;
        }
    }

    boolean isRevoked() {
        return revokedAt != null;
    }

    /** The scopes as issued; stored values that name no scope are ignored. */
    Set<Scope> scopes() {
        Set<Scope> known = EnumSet.noneOf(Scope.class);
        scopes.forEach(value -> Scope.fromValue(value).ifPresent(known::add));
        return known;
    }

    UUID id() {
        return id;
    }

    String name() {
        return name;
    }

    String owner() {
        return owner;
    }

    String tenant() {
        return tenant;
    }

    String tokenHash() {
        return tokenHash;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant expiresAt() {
        return expiresAt;
    }

    Instant lastUsedAt() {
        return lastUsedAt;
    }

    Instant revokedAt() {
        return revokedAt;
    }
}
