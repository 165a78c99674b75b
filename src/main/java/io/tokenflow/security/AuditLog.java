package io.tokenflow.security;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.StorableValues;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit log in PostgreSQL ({@code audit_log}): who signed in or failed to, who signed out, and every
 * administrative action (people created and changed, worker keys created, revoked and rotated, API tokens issued and
 * revoked). Read on {@code GET /api/v1/audit} and the {@code /audit} page (admins).
 */
@Component
public class AuditLog {

    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    /** The most entries one read returns. */
    public static final int MAX_LIMIT = 1000;

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final Clock clock;

    AuditLog(JdbcClient jdbc, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    /** Records an action; {@code details} may be empty, values must be JSON-writable. */
    public void record(String actor, String action, String target, Map<String, ?> details, String remoteAddress) {
        log.info("Audit: {} {} {}", actor, action, target == null ? "" : target);
        jdbc.sql("insert into audit_log (at, actor, action, target, details, remote_address) values (:at, :actor, "
                        + ":action, :target, cast(:details as jsonb), :remote)")
                .param("at", Timestamp.from(clock.instant())).param("actor", storable(actor))
                .param("action", action).param("target", storable(target))
                .param("details", json.writeValueAsString(new TreeMap<>(details)))
                .param("remote", storable(remoteAddress)).update();
    }

    /** Records an action without a remote address (one not tied to a request). */
    public void record(String actor, String action, String target, Map<String, ?> details) {
        record(actor, action, target, details, null);
    }

    /** The newest entries, optionally of one actor and one action, newest first. */
    public List<Entry> recent(String actor, String action, int limit) {
        return jdbc.sql("select id, at, actor, action, target, details::text as details, remote_address from audit_log "
                        + "where (cast(:actor as text) is null or actor = :actor) "
                        + "and (cast(:action as text) is null or action = :action) order by id desc limit :limit")
                .param("actor", blankToNull(actor)).param("action", blankToNull(action)).param("limit", limit)
                .query((rs, i) -> new Entry(rs.getLong("id"), rs.getTimestamp("at").toInstant(),
                        rs.getString("actor"), rs.getString("action"), rs.getString("target"),
                        json.readTree(rs.getString("details")), rs.getString("remote_address")))
                .list();
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    private static String storable(String text) {
        String storable = StorableValues.storable(text);
        return storable == null || storable.length() <= 200 ? storable : storable.substring(0, 200);
    }

    /** One audited action. */
    public record Entry(long id, Instant at, String actor, String action, String target, JsonNode details,
                        String remoteAddress) {
    }
}
