package io.tokenflow.dlq;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.TenantSql;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads dead-letter entries from PostgreSQL, newest first, with the filters of the page and the API; lists hold the
 * current tenant's entries.
 */
@Component
class DlqQueries {

    static final int LIMIT = 200;
    static final int PAGE_SIZE = 25;
    private static final String SELECT = "select d.id, d.run_id, w.name as workflow, d.node_id, d.node_type, "
            + "d.token_id, d.iteration, d.attempts, d.error_kind, d.error, d.error_code, d.payload::text as payload, "
            + "d.payload_ref, d.created_at, d.resolved_at, d.resolution, d.resolved_by from dlq d "
            + "join runs r on r.id = d.run_id join workflows w on w.id = r.workflow_id ";

    private final JdbcClient jdbc;
    private final JsonMapper json;

    DlqQueries(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    private static final String FILTERS = "where (:open is null or (d.resolved_at is null) = :open) "
            + "and (:workflow = '' or w.name = :workflow or w.id::text = :workflow) "
            + "and (:node = '' or d.node_id = :node) and " + TenantSql.ownsWorkflow("w") + " "
            + "and (:error = '' or d.error_code = :error or strpos(lower(d.error), lower(:error)) > 0) ";

    /** Filters: open or resolved entries, a workflow (name or id), a node id, an error (code, or part of the message). */
    List<DlqEntry> list(DlqFilter filter) {
        return filtered(SELECT + FILTERS + "order by d.created_at desc, d.id limit " + LIMIT, filter)
                .query(this::entry).list();
    }

    /** The page of entries passing the filter that starts at entry {@code offset} (from 0), newest first. */
    List<DlqEntry> page(DlqFilter filter, long offset) {
        return filtered(SELECT + FILTERS + "order by d.created_at desc, d.id limit " + PAGE_SIZE + " offset :offset",
                filter).param("offset", offset).query(this::entry).list();
    }

    /** How many entries pass the filter. */
    long count(DlqFilter filter) {
        return filtered("select count(*) from dlq d join runs r on r.id = d.run_id join workflows w "
                + "on w.id = r.workflow_id " + FILTERS, filter).query(Long.class).single();
    }

    private JdbcClient.StatementSpec filtered(String sql, DlqFilter filter) {
        return jdbc.sql(sql).param("open", filter.open()).param("workflow", filter.workflow())
                .param("node", filter.node()).param("error", filter.error()).param("tenant", CurrentTenant.orNull());
    }

    Optional<DlqEntry> find(UUID id) {
        return jdbc.sql(SELECT + "where d.id = :id").param("id", id).query(this::entry).optional();
    }

    private DlqEntry entry(ResultSet rs, int row) throws SQLException {
        String payload = rs.getString("payload");
        return new DlqEntry(rs.getObject("id", UUID.class), rs.getObject("run_id", UUID.class), rs.getString("workflow"),
                rs.getString("node_id"), rs.getString("node_type"), rs.getString("token_id"), rs.getInt("iteration"),
                rs.getInt("attempts"), rs.getString("error_kind"), rs.getString("error"), rs.getString("error_code"),
                payload == null ? null : json.readTree(payload), rs.getString("payload_ref"),
                instant(rs, "created_at"), instant(rs, "resolved_at"), rs.getString("resolution"),
                rs.getString("resolved_by"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }
}
