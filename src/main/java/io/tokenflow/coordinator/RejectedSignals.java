package io.tokenflow.coordinator;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.StorableValues;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.tenancy.TenantSql;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records completion signals that were refused (unknown run, unknown node, wrong token, malformed), for operators.
 * Whatever a refused signal holds is recorded: text PostgreSQL cannot store (a NUL character, a lone surrogate) is kept
 * as its escape, so a malformed entry written by hand is recorded and acknowledged instead of failing its handling and
 * being delivered again forever.
 */
@Component
public class RejectedSignals {

    private static final Log log = LogFactory.getLog(RejectedSignals.class);

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final Clock clock;

    RejectedSignals(JdbcClient jdbc, JsonMapper json, Clock clock) {
        this.jdbc = jdbc;
        this.json = json;
        this.clock = clock;
    }

    void record(int shard, Signal.Completion completion, String reason) {
        insert(shard, completion.entryId(), completion.run().toString(), completion.token(), completion.node(), reason,
                Map.of("token", completion.token(), "run", completion.run().toString(), "node", completion.node(),
                        "status", completion.succeeded() ? "completed" : "failed"));
    }

    void record(int shard, Signal.Started started, String reason) {
        insert(shard, started.entryId(), started.run().toString(), started.token(), started.node(), reason,
                Map.of("kind", "started", "token", started.token(), "run", started.run().toString(), "node",
                        started.node()));
    }

    void record(int shard, Signal.Malformed malformed) {
        Map<String, String> fields = malformed.fields();
        insert(shard, malformed.entryId(), fields.get("run"), fields.get("token"), fields.get("node"), malformed.reason(),
                fields);
    }

    private void insert(int shard, String entryId, String run, String token, String node, String reason,
                        Map<String, String> fields) {
        log.warn("Refused completion signal " + entryId + " on shard " + shard + ": " + reason);
        jdbc.sql("insert into rejected_signals (received_at, shard, stream_entry_id, run_id, token_id, node_id, reason, "
                        + "fields) values (:at, :shard, :entry, :run, :token, :node, :reason, cast(:fields as jsonb))")
                .param("at", Timestamp.from(clock.instant())).param("shard", shard).param("entry", entryId)
                .param("run", truncate(run)).param("token", truncate(token)).param("node", truncate(node))
                .param("reason", StorableValues.storable(reason))
                .param("fields", json.writeValueAsString(storable(fields))).update();
    }

    /**
     * The most recent refusals of the current tenant's runs (refusals naming no known run: the default tenant's),
     * newest first; for one run when {@code runId} is given. (The null test names the
     * parameter's type: PostgreSQL cannot tell it from {@code :run is null} alone and refused the unfiltered list.)
     */
    public List<RejectedSignal> recent(String runId, int limit) {
        return jdbc.sql("select id, received_at, shard, stream_entry_id, run_id, token_id, node_id, reason, "
                        + "fields::text as fields from rejected_signals where (cast(:run as text) is null or run_id = :run) "
                        + "and " + TenantSql.ownsRun(TenantSql.uuidOrNull("run_id")) + " "
                        + "order by id desc limit :limit")
                .param("run", runId).param("limit", limit).param("tenant", CurrentTenant.orNull())
                .query((rs, i) -> new RejectedSignal(rs.getLong("id"), rs.getTimestamp("received_at").toInstant(),
                        rs.getInt("shard"), rs.getString("stream_entry_id"), rs.getString("run_id"),
                        rs.getString("token_id"), rs.getString("node_id"), rs.getString("reason"),
                        json.readTree(rs.getString("fields"))))
                .list();
    }

    private static String truncate(String value) {
        String storable = StorableValues.storable(value);
        return storable == null || storable.length() <= 200 ? storable : storable.substring(0, 200);
    }

    private static Map<String, String> storable(Map<String, String> fields) {
        Map<String, String> storable = new TreeMap<>();
        fields.forEach((name, value) -> storable.put(StorableValues.storable(name), StorableValues.storable(value)));
        return storable;
    }

    /** One refused signal. */
    public record RejectedSignal(long id, java.time.Instant receivedAt, int shard, String streamEntryId, String runId,
                                 String tokenId, String nodeId, String reason, tools.jackson.databind.JsonNode fields) {
    }
}
