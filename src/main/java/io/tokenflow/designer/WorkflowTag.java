package io.tokenflow.designer;

import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** A movable name such as {@code main} pointing at one version of a workflow. */
@Entity
@Table(name = "workflow_tags")
@IdClass(WorkflowTag.Key.class)
public class WorkflowTag {

    @Id
    @Column(name = "workflow_id")
    private UUID workflowId;

    @Id
    private String tag;

    @Column(nullable = false)
    private int version;

    @Column(name = "updated_by", nullable = false)
    private String updatedBy;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected WorkflowTag() {
    }

    WorkflowTag(UUID workflowId, String tag, int version, String updatedBy, Instant updatedAt) {
        this.workflowId = workflowId;
        this.tag = tag;
        this.version = version;
        this.updatedBy = updatedBy;
        this.updatedAt = updatedAt;
    }

    void pointAt(int newVersion, String by, Instant at) {
        this.version = newVersion;
        this.updatedBy = by;
        this.updatedAt = at;
    }

    public UUID workflowId() {
        return workflowId;
    }

    public String tag() {
        return tag;
    }

    public int version() {
        return version;
    }

    public String updatedBy() {
        return updatedBy;
    }

    public Instant updatedAt() {
        return updatedAt;
    }

    /** Composite key: workflow and tag name. */
    public record Key(UUID workflowId, String tag) implements Serializable {
        public Key() {
            this(null, null);
        }
    }
}
