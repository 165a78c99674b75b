package io.tokenflow.designer;

import java.time.Instant;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A named workflow; its content lives in {@link WorkflowVersion}s. */
@Entity
@Table(name = "workflows")
public class Workflow {

    @Id
    private UUID id;

    @Column(nullable = false)
    private String name;

    @Column(name = "tenant_id", nullable = false, updatable = false)
    private String tenant;

    private String description;

    @Column(name = "latest_version", nullable = false)
    private int latestVersion;

    @Column(name = "created_by", nullable = false)
    private String createdBy;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected Workflow() {
    }

    Workflow(UUID id, String tenant, String name, String description, String createdBy, Instant at) {
        this.id = id;
        this.tenant = tenant;
        this.name = name;
        this.description = description;
        this.latestVersion = 1;
        this.createdBy = createdBy;
        this.createdAt = at;
        this.updatedAt = at;
    }

    /** Records that a new version was stored; the version's DSL may have renamed or re-described the workflow. */
    void advanceTo(int version, String newName, String newDescription, Instant at) {
        if (version != latestVersion + 1) {
            throw new IllegalStateException("Expected version " + (latestVersion + 1) + ", but got " + version);
        }
        this.latestVersion = version;
        this.name = newName;
        this.description = newDescription;
        this.updatedAt = at;
    }

    public UUID id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** The tenant the workflow, its versions and its runs belong to. */
    public String tenant() {
        return tenant;
    }

    public String description() {
        return description;
    }

    public int latestVersion() {
        return latestVersion;
    }

    public String createdBy() {
        return createdBy;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
