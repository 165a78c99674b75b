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
 * Pages of the runs matching the runs page's filters, newest first, their count, and single rows by id, from
 * PostgreSQL: of the current tenant's workflows ({@link CurrentTenant}; all on a thread acting for none).
 */
@Component
class RunListQueries {

    static final int PAGE_SIZE = 25;
    private static final String ROW = """
            select r.id, r.workflow_id, w.name as workflow_name, r.workflow_version, r.status, r.created_at,
                   r.ended_at, r.final_counter
            from runs r join workflows w on w.id = r.workflow_id
            """;

    private final JdbcClient jdbc;

    RunListQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private static final String FILTERS = """
            where (cast(:status as text) is null or r.status = :status)
              and (cast(:workflow as text) is null or w.name = :workflow or cast(w.id as text) = :workflow)
              and (cast(:since as timestamptz) is null or r.created_at >= cast(:since as timestamptz))
              and\s""" + TenantSql.ownsWorkflow("w");

    /** The page starting at row {@code offset} (from 0) of the runs passing the filter, newest first. */
    List<RunRow> page(RunFilter filter, long offset) {
        return filtered(jdbc.sql(ROW + FILTERS + " order by r.created_at desc, r.id limit :limit offset :offset"), filter)
                .param("limit", PAGE_SIZE).param("offset", offset).query((rs, row) -> row(rs)).list();
    }

    /** How many runs pass the filter. */
    long count(RunFilter filter) {
        return filtered(jdbc.sql("select count(*) from runs r join workflows w on w.id = r.workflow_id " + FILTERS),
                filter).query(Long.class).single();
    }

    private static JdbcClient.StatementSpec filtered(JdbcClient.StatementSpec sql, RunFilter filter) {
        Instant since = filter.sinceInstant();
        return sql.param("status", filter.status()).param("workflow", filter.workflow())
                .param("since", since == null ? null : OffsetDateTime.ofInstant(since, java.time.ZoneOffset.UTC))
                .param("tenant", CurrentTenant.orNull());
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
        Instant created = instant(rs.getObject("created_at", OffsetDateTime.class));
        Instant ended = instant(rs.getObject("ended_at", OffsetDateTime.class));
        return new RunRow(rs.getObject("id", UUID.class), rs.getObject("workflow_id", UUID.class),
                rs.getString("workflow_name"), rs.getInt("workflow_version"), rs.getString("status"), created,
                created, ended, counterOf(counter, ended), null);
    }

    /** The final counter of an ended run (0 when not written), else {@code null}: unknown while it runs. */
    private static Long counterOf(Integer counter, Instant ended) {
        if (counter != null) {
            return counter.longValue();
        }
        return ended == null ? null : Long.valueOf(0);
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /**
     * One run in the list; {@code endedAt} is {@code null} while it has not ended.
     *
     * @param startedAt when it started (its duration counts from here), else when it was created
     * @param counter   tokens in flight (live while it runs), or {@code null} when unknown
     * @param waiting   while it runs, what it waits for as its page says it ({@code awaiting approval}, {@code waiting
     *                  until …}), else {@code null}
     */
    public record RunRow(UUID id, UUID workflowId, String workflowName, int workflowVersion, String status,
                         Instant createdAt, Instant startedAt, Instant endedAt, Long counter, String waiting) {

        /** How long it ran, or has been running until {@code now}. */
        public String duration(Instant now) {
            return startedAt == null ? "" : RunDurations.format(Duration.between(startedAt,
                    endedAt != null ? endedAt : now));
        }

        /** When its duration counts from, in epoch ms (the page ticks it while the run has not ended). */
        public Long startedAtMillis() {
            return startedAt == null ? null : startedAt.toEpochMilli();
        }

        RunRow named(String name) {
            return new RunRow(id, workflowId, name, workflowVersion, status, createdAt, startedAt, endedAt, counter,
                    waiting);
        }

        /** This row with the run's state as its page draws it now. */
        RunRow as(RunPicture run) {
            return new RunRow(id, workflowId, workflowName, workflowVersion, run.status(), createdAt,
                    run.startedAt() == null ? startedAt : run.startedAt(), run.endedAt(), run.counter(),
                    run.finished() ? null : waitingOf(run));
        }

        private static String waitingOf(RunPicture run) {
            if (!run.pendingApprovals().isEmpty()) {
                return "awaiting approval";
            }
            return run.nodes().stream().map(RunPicture.NodeView::waiting).filter(java.util.Objects::nonNull)
                    .findFirst().orElse(null);
        }
    }
}
