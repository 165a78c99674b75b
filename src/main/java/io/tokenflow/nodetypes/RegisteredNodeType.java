package io.tokenflow.nodetypes;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A custom node type registered by an admin, executed by external workers reading its stream. */
@Entity
@Table(name = "node_types")
class RegisteredNodeType {

    @Id
    private String name;

    @Column(name = "tenant_id", nullable = false, updatable = false)
    private String tenantId;

    @Column(name = "display_name", nullable = false)
    private String displayName;

    private String description;

    @Column(nullable = false)
    private String kind;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "config_schema", nullable = false, columnDefinition = "jsonb")
    private String configSchema;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    private String capabilities = "{}";

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected RegisteredNodeType() {
    }

    RegisteredNodeType(String name, String tenantId, String createdBy, Instant at) {
        this.name = name;
        this.tenantId = tenantId;
        this.createdBy = createdBy;
        this.createdAt = at;
        this.updatedAt = at;
    }

    void describe(String newDisplayName, String newDescription, String newKind, String newConfigSchema, Instant at) {
        this.displayName = newDisplayName;
        this.description = newDescription;
        this.kind = newKind;
        this.configSchema = newConfigSchema;
        this.updatedAt = at;
    }

    String name() {
        return name;
    }

    String tenantId() {
        return tenantId;
    }

    String displayName() {
        return displayName;
    }

    String description() {
        return description;
    }

    String kind() {
        return kind;
    }

    String configSchema() {
        return configSchema;
    }
}
