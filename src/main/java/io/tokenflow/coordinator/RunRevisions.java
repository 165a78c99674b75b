package io.tokenflow.coordinator;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A run's own revisions of its workflow (JSON Patches applied to the running run), in PostgreSQL's
 * {@code run_ir_revisions}: revision N holds the whole definition after the N-th patch. Revision 0 is the pinned
 * workflow version and has no row.
 */
@Component
public class RunRevisions {

    private final JdbcClient jdbc;

    RunRevisions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The definition (DSL JSON text) of a revision, or empty when the run has no such revision. */
    public Optional<String> definition(UUID runId, int revision) {
        return jdbc.sql("select dsl::text from run_ir_revisions where run_id = :run and revision = :revision")
                .param("run", runId).param("revision", revision).query(String.class).optional();
    }

    public void insert(UUID runId, int revision, String dsl, String ir, String patch, String author, Instant at) {
        jdbc.sql("insert into run_ir_revisions (run_id, revision, dsl, ir, patch, author, created_at) "
                        + "values (:run, :revision, cast(:dsl as jsonb), cast(:ir as jsonb), cast(:patch as jsonb), "
                        + ":author, :at)")
                .param("run", runId).param("revision", revision).param("dsl", dsl).param("ir", ir).param("patch", patch)
                .param("author", author).param("at", Timestamp.from(at)).update();
    }

    /** Removes a revision the run never switched to (its patch was refused at the last moment). */
    public void delete(UUID runId, int revision) {
        jdbc.sql("delete from run_ir_revisions where run_id = :run and revision = :revision")
                .param("run", runId).param("revision", revision).update();
    }
}
