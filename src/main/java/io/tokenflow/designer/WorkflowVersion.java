package io.tokenflow.designer;

import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** One immutable version of a workflow: its DSL, compiled IR, and the patch from its parent. JSON kept as text. */
@Entity
@Table(name = "workflow_versions")
@IdClass(WorkflowVersion.Key.class)
public class WorkflowVersion {

    @Id
    @Column(name = "workflow_id")
    private UUID workflowId;

    @Id
    private int version;

    /** Bound as text and cast to json, never through jsonb, so the author's member order is kept. */
    @Column(nullable = false, columnDefinition = "json")
    @ColumnTransformer(write = "?::json")
    private String dsl;

    @Column(nullable = false, columnDefinition = "json")
    @ColumnTransformer(write = "?::json")
    private String ir;

    @Column(name = "content_hash", nullable = false)
    private String contentHash;

    @Column(name = "parent_version")
    private Integer parentVersion;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(columnDefinition = "jsonb")
    private String patch;

    private String message;

    @Column(nullable = false)
    private String author;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected WorkflowVersion() {
    }

    WorkflowVersion(UUID workflowId, int version, String dsl, String ir, String contentHash, Integer parentVersion,
                    String patch, String message, String author, Instant createdAt) {
        this.workflowId = workflowId;
        this.version = version;
        this.dsl = dsl;
        this.ir = ir;
        this.contentHash = contentHash;
        this.parentVersion = parentVersion;
        this.patch = patch;
        this.message = message;
        this.author = author;
        this.createdAt = createdAt;
    }

    public UUID workflowId() {
        return workflowId;
    }

    public int version() {
        return version;
    }

    public String dsl() {
        return dsl;
    }

    public String ir() {
        return ir;
    }

    public String contentHash() {
        return contentHash;
    }

    public Integer parentVersion() {
        return parentVersion;
    }

    public String patch() {
        return patch;
    }

    public String message() {
        return message;
    }

    public String author() {
        return author;
    }

    public Instant createdAt() {
        return createdAt;
    }

    /** Composite key: workflow and version number. */
    public record Key(UUID workflowId, int version) implements Serializable {
        public Key() {
            this(null, 0);
        }
    }
}
