package io.tokenflow.tenancy;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * The tenant a run, an approval or a dead letter belongs to: its workflow's. A run's workflow is read from its Redis
 * meta while it runs (so a run started while PostgreSQL is away is found), else from its row or its start's; a
 * workflow's tenant never changes, so the answers are cached, and starts tell it ({@link #remember}) so that the runs
 * of this instance are known without PostgreSQL.
 */
@Service
public class RunTenants {

    private final JdbcClient jdbc;
    private final RunMeta meta;
    private final RedisKeys keys;
    private final Cache<UUID, String> workflows = Caffeine.newBuilder().maximumSize(10_000).build();
    private final Cache<UUID, String> runs = Caffeine.newBuilder().maximumSize(100_000).build();

    RunTenants(JdbcClient jdbc, RunMeta meta, RedisKeys keys) {
        this.jdbc = jdbc;
        this.meta = meta;
        this.keys = keys;
    }

    /** The tenant of a workflow; empty when there is no such workflow. */
    public Optional<String> ofWorkflow(UUID workflowId) {
        String cached = workflows.getIfPresent(workflowId);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<String> found = jdbc.sql("select tenant_id from workflows where id = ?").param(workflowId)
                .query(String.class).optional();
        found.ifPresent(tenant -> workflows.put(workflowId, tenant));
        return found;
    }

    /** The tenant of a run; empty when no run has this id. */
    public Optional<String> ofRun(UUID runId) {
        String cached = runs.getIfPresent(runId);
        if (cached != null) {
            return Optional.of(cached);
        }
        Optional<UUID> workflow = meta.pinned(runId, keys.shardOf(runId)).map(RunMeta.Pinned::workflowId);
        if (workflow.isEmpty()) {
            workflow = jdbc.sql("select workflow_id from runs where id = :id union all "
                            + "select workflow_id from run_starts where id = :id limit 1").param("id", runId)
                    .query(UUID.class).optional();
        }
        Optional<String> found = workflow.flatMap(this::ofWorkflow);
        found.ifPresent(tenant -> runs.put(runId, tenant));
        return found;
    }

    /** The tenant of a workflow that exists (one a run being worked on has); throws when there is none. */
    public String requireOfWorkflow(UUID workflowId) {
        return ofWorkflow(workflowId).orElseThrow(() -> new IllegalStateException("Expected workflow " + workflowId
                + " to belong to a tenant, but there is no such workflow"));
    }

    /** The tenant of a run that exists (one the engine works on); throws when no run has this id. */
    public String requireOfRun(UUID runId) {
        return ofRun(runId).orElseThrow(() -> new IllegalStateException("Expected run " + runId + " to belong to a "
                + "tenant, but no run has this id"));
    }

    /** Notes the tenant of a run just started, and of its workflow. */
    public void remember(UUID runId, UUID workflowId, String tenant) {
        workflows.put(workflowId, tenant);
        runs.put(runId, tenant);
    }

    /** The tenant of an approval's run; empty when there is no such approval. */
    public Optional<String> ofApproval(UUID approvalId) {
        return jdbc.sql("select run_id from approvals where id = ?").param(approvalId).query(UUID.class).optional()
                .flatMap(this::ofRun);
    }

    /** The tenant of a dead letter's run; empty when there is no such entry. */
    public Optional<String> ofDeadLetter(UUID entryId) {
        return jdbc.sql("select run_id from dlq where id = ?").param(entryId).query(UUID.class).optional()
                .flatMap(this::ofRun);
    }
}
