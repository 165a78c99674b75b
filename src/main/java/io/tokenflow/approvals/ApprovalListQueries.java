package io.tokenflow.approvals;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The newest approvals, for the approvals page. */
@Component
class ApprovalListQueries {

    static final int LIMIT = 100;

    private final JdbcClient jdbc;

    ApprovalListQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<ApprovalRow> newest() {
        return jdbc.sql("""
                        select a.id, a.node_id, a.title, a.run_id, a.status, a.created_at, a.timeout_at
                        from approvals a
                        order by a.created_at desc, a.id
                        limit :limit""")
                .param("limit", LIMIT)
                .query((rs, row) -> new ApprovalRow(rs.getObject("id", UUID.class), rs.getString("node_id"),
                        rs.getString("title"), rs.getObject("run_id", UUID.class), rs.getString("status"),
                        instant(rs.getObject("created_at", OffsetDateTime.class)),
                        instant(rs.getObject("timeout_at", OffsetDateTime.class))))
                .list();
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /** One approval in the list; {@code timeoutAt} is {@code null} when it never times out. */
    public record ApprovalRow(UUID id, String nodeId, String title, UUID runId, String status, Instant createdAt,
                              Instant timeoutAt) {
    }
}
