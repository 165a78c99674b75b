package io.tokenflow.approvals;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.security.Caller;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.TenantSql;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads approvals from PostgreSQL: one, the pending ones a caller may decide, and the decided ones (lists: of the
 * current tenant's runs).
 */
@Component
public class ApprovalQueries {

    /** How many decided approvals the inbox page lists (the newest). */
    static final int LIMIT = 200;
    private static final String SELECT = """
            select a.id, a.run_id, a.node_id, a.title, a.instructions, a.status, a.approvers, a.escalation_policy, a.escalation_level,
                   a.payload, a.payload_ref, a.decision, a.decided_by, a.comment, a.created_at, a.timeout_at,
                   a.decided_at, w.name as workflow_name
            from approvals a
            left join runs r on r.id = a.run_id
            left join workflows w on w.id = r.workflow_id
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    ApprovalQueries(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    public Optional<ApprovalRecord> find(UUID id) {
        return jdbc.sql(SELECT + " where a.id = :id").param("id", id).query(this::row).optional();
    }

    /**
     * One page of the pending approvals, oldest first; only those the caller may decide when {@code caller} is given.
     */
    public List<ApprovalRecord> pending(Caller caller, int page, int size) {
        String mine = caller == null ? "" : " and jsonb_exists_any(a.approvers, cast(:names as text[]))";
        var query = jdbc.sql(SELECT + " where a.status = 'PENDING'" + mine + " and " + TenantSql.ownsWorkflow("w")
                + " order by a.created_at, a.id limit :limit offset :offset").param("limit", size)
                .param("offset", (long) page * size).param("tenant", CurrentTenant.orNull());
        if (caller != null) {
            query = query.param("names", names(caller));
        }
        return query.query(this::row).list();
    }

    /**
     * One page of the pending approvals the inbox filter lets through, and one more when there are more; {@code caller}
     * is whose they must be when the filter says {@code mine}.
     */
    List<ApprovalRecord> inbox(InboxFilter filter, Caller caller) {
        String where = " where a.status = 'PENDING' and " + TenantSql.ownsWorkflow("w")
                + (filter.workflow() == null ? "" : " and w.name = :workflow")
                + (filter.mine() ? " and jsonb_exists_any(a.approvers, cast(:names as text[]))" : "")
                + (filter.overdue() ? " and a.timeout_at <= now()" : "");
        String order = filter.urgent() ? " order by a.timeout_at nulls last, a.created_at desc, a.id"
                : " order by a.created_at desc, a.id";
        var query = jdbc.sql(SELECT + where + order + " limit :limit offset :offset")
                .param("limit", InboxFilter.PAGE_SIZE + 1).param("offset", filter.page() * InboxFilter.PAGE_SIZE)
                .param("tenant", CurrentTenant.orNull());
        if (filter.workflow() != null) {
            query = query.param("workflow", filter.workflow());
        }
        if (filter.mine()) {
            query = query.param("names", names(caller));
        }
        return query.query(this::row).list();
    }

    /** The names of the workflows with pending approvals, for the inbox's workflow filter. */
    List<String> pendingWorkflows() {
        return jdbc.sql("select distinct w.name from approvals a join runs r on r.id = a.run_id join workflows w "
                        + "on w.id = r.workflow_id where a.status = 'PENDING' and " + TenantSql.ownsWorkflow("w")
                        + " order by w.name").param("tenant", CurrentTenant.orNull()).query(String.class).list();
    }

    /**
     * One page of the decided (or cancelled) approvals, newest first; only those the caller decided or could have, when
     * {@code caller} is given.
     */
    public List<ApprovalRecord> decided(Caller caller, int page, int size) {
        String mine = caller == null ? ""
                : " and (a.decided_by = :username or jsonb_exists_any(a.approvers, cast(:names as text[])))";
        var query = jdbc.sql(SELECT + " where a.status <> 'PENDING'" + mine + " and " + TenantSql.ownsWorkflow("w")
                + " order by a.decided_at desc nulls last, a.id limit :limit offset :offset").param("limit", size)
                .param("offset", (long) page * size).param("tenant", CurrentTenant.orNull());
        if (caller != null) {
            query = query.param("names", names(caller)).param("username", caller.username());
        }
        return query.query(this::row).list();
    }

    /**
     * A fingerprint of all pending approvals: it changes when one is requested, escalated, decided or cancelled (each
     * such update bumps its {@code lock_version} or takes it out of the pending ones). Reads the pending index only.
     */
    String pendingFingerprint() {
        return jdbc.sql("select count(*) || ':' || coalesce(sum(hashtext(id::text || ':' || lock_version)), 0) "
                + "from approvals where status = 'PENDING'").query(String.class).single();
    }

    /** Pending approvals whose timeout has passed, oldest first. */
    List<ApprovalRecord> timedOut(Instant now, int limit) {
        return jdbc.sql(SELECT + " where a.status = 'PENDING' and a.timeout_at <= :now order by a.timeout_at limit :limit")
                .param("now", OffsetDateTime.ofInstant(now, java.time.ZoneOffset.UTC)).param("limit", limit)
                .query(this::row).list();
    }

    private static String[] names(Caller caller) {
        List<String> names = new ArrayList<>();
        names.add(caller.username());
        caller.roles().forEach(role -> names.add("role:" + role.name().toLowerCase(Locale.ROOT)));
        return names.toArray(String[]::new);
    }

    private ApprovalRecord row(ResultSet rs, int row) throws SQLException {
        List<String> approvers = new ArrayList<>();
        json.readTree(rs.getString("approvers")).forEach(approver -> approvers.add(approver.asString()));
        String payload = rs.getString("payload");
        return new ApprovalRecord(rs.getObject("id", UUID.class), rs.getObject("run_id", UUID.class),
                rs.getString("node_id"), rs.getString("title"), rs.getString("instructions"), rs.getString("status"),
                approvers,
                rs.getString("escalation_policy"), rs.getInt("escalation_level"),
                payload == null ? null : (JsonNode) json.readTree(payload), rs.getString("payload_ref"),
                rs.getString("decision"), rs.getString("decided_by"), rs.getString("comment"),
                instant(rs, "created_at"), instant(rs, "timeout_at"), instant(rs, "decided_at"),
                rs.getString("workflow_name"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }
}
