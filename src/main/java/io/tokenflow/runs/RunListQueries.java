package io.tokenflow.runs;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.TenantSql;

/**
 * The newest runs matching the runs page's filters, and single rows by id, from PostgreSQL: of the current tenant's
 * workflows ({@link CurrentTenant}; all on a thread acting for none).
 */
@Component
class RunListQueries {

    static final int LIMIT = 100;
    private static final String ROW = """
            select r.id, r.workflow_id, w.name as workflow_name, r.workflow_version, r.status, r.created_at,
                   r.ended_at, r.final_counter
            from runs r join workflows w on w.id = r.workflow_id
            """;

    private final JdbcClient jdbc;

    RunListQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<RunRow> newest(RunFilter filter) {
        return jdbc.sql(ROW + """
                        where (cast(:status as text) is null or r.status = :status)
                          and (cast(:workflow as text) is null or w.name = :workflow
                               or cast(w.id as text) = :workflow)
                          and """ + TenantSql.ownsWorkflow("w") + """
                        order by r.created_at desc, r.id
                        limit :limit""")
                .param("status", filter.status()).param("workflow", filter.workflow()).param("limit", LIMIT)
                .param("tenant", CurrentTenant.orNull())
                .query((rs, row) -> row(rs)).list();
    }

    List<RunRow> byIds(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql(ROW + "where r.id in (:ids) and " + TenantSql.ownsWorkflow("w")).param("ids", ids)
                .param("tenant", CurrentTenant.orNull()).query((rs, row) -> row(rs)).list();
    }

    /** Workflow names by id, for runs known only from Redis (workflows of other tenants are left out). */
    java.util.Map<UUID, String> workflowNames(Collection<UUID> ids) {
        java.util.Map<UUID, String> names = new java.util.HashMap<>();
        if (!ids.isEmpty()) {
            jdbc.sql("select id, name from workflows w where id in (:ids) and " + TenantSql.ownsWorkflow("w"))
                    .param("ids", ids).param("tenant", CurrentTenant.orNull())
                    .query((rs, row) -> names.put(rs.getObject("id", UUID.class), rs.getString("name"))).list();
        }
        return names;
    }

    private static RunRow row(java.sql.ResultSet rs) throws java.sql.SQLException {
        Integer counter = rs.getObject("final_counter", Integer.class);
        return new RunRow(rs.getObject("id", UUID.class), rs.getObject("workflow_id", UUID.class),
                rs.getString("workflow_name"), rs.getInt("workflow_version"), rs.getString("status"),
                instant(rs.getObject("created_at", OffsetDateTime.class)),
                instant(rs.getObject("ended_at", OffsetDateTime.class)), counter == null ? null : counter.longValue());
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /**
     * One run in the list; {@code endedAt} is {@code null} while it has not ended.
     *
     * @param counter tokens in flight (live while it runs), or {@code null} when unknown
     */
    public record RunRow(UUID id, UUID workflowId, String workflowName, int workflowVersion, String status,
                         Instant createdAt, Instant endedAt, Long counter) {

        /** How long it ran, or has been running until {@code now}. */
        public String duration(Instant now) {
            return createdAt == null ? "" : RunDurations.format(Duration.between(createdAt,
                    endedAt != null ? endedAt : now));
        }

        RunRow live(String liveStatus, Long liveCounter) {
            return new RunRow(id, workflowId, workflowName, workflowVersion, liveStatus, createdAt, endedAt, liveCounter);
        }
    }
}
