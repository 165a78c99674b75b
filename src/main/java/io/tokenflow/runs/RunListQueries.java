package io.tokenflow.runs;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The newest runs, for the runs page. */
@Component
class RunListQueries {

    static final int LIMIT = 100;

    private final JdbcClient jdbc;

    RunListQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<RunRow> newest() {
        return jdbc.sql("""
                        select r.id, r.workflow_id, w.name as workflow_name, r.workflow_version, r.status,
                               r.created_at, r.ended_at
                        from runs r join workflows w on w.id = r.workflow_id
                        order by r.created_at desc, r.id
                        limit :limit""")
                .param("limit", LIMIT)
                .query((rs, row) -> new RunRow(rs.getObject("id", UUID.class), rs.getObject("workflow_id", UUID.class),
                        rs.getString("workflow_name"), rs.getInt("workflow_version"), rs.getString("status"),
                        instant(rs.getObject("created_at", OffsetDateTime.class)),
                        instant(rs.getObject("ended_at", OffsetDateTime.class))))
                .list();
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /** One run in the list; {@code endedAt} is {@code null} while it has not ended. */
    public record RunRow(UUID id, UUID workflowId, String workflowName, int workflowVersion, String status,
                         Instant createdAt, Instant endedAt) {
    }
}
