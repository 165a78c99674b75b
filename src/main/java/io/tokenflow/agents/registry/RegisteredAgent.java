package io.tokenflow.agents.registry;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** An external agent in the registry ({@code agents}); auth and retry policy are JSON documents. */
@Entity
@Table(name = "agents")
@IdClass(RegisteredAgent.Key.class)
class RegisteredAgent {

    @Id
    @Column(name = "tenant_id")
    private String tenantId;

    @Id
    private String name;

    @Column(nullable = false)
    private String url;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    private String auth;

    @Column(name = "timeout_ms", nullable = false)
    private int timeoutMs;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "retry_policy", nullable = false, columnDefinition = "jsonb")
    private String retryPolicy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected RegisteredAgent() {
    }

    RegisteredAgent(String tenantId, String name, Instant at) {
        this.tenantId = tenantId;
        this.name = name;
        this.createdAt = at;
        this.updatedAt = at;
    }

    void define(String newUrl, String newAuth, int newTimeoutMs, String newRetryPolicy, Instant at) {
        this.url = newUrl;
        this.auth = newAuth;
        this.timeoutMs = newTimeoutMs;
        this.retryPolicy = newRetryPolicy;
        this.updatedAt = at;
    }

    String name() {
        return name;
    }

    /** The key of an agent: its tenant and its name there (a class with a no-argument constructor, for JPA). */
    static final class Key implements java.io.Serializable {

        private String tenantId;
        private String name;

        Key() {
        }

        Key(String tenantId, String name) {
            this.tenantId = tenantId;
            this.name = name;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && key.tenantId.equals(tenantId) && key.name.equals(name);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(tenantId, name);
        }
    }

    String url() {
        return url;
    }

    String auth() {
        return auth;
    }

    int timeoutMs() {
        return timeoutMs;
    }

    String retryPolicy() {
        return retryPolicy;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant updatedAt() {
        return updatedAt;
    }
}
