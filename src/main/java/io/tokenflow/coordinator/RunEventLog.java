package io.tokenflow.coordinator;

import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunEvents;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** A run's events as PostgreSQL's {@code event_log} holds them, parsed (replays, resumes and compensations). */
@Component
public class RunEventLog {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    RunEventLog(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** The run's events up to {@code upToSeq}, in seq order (none for an unknown run). */
    public List<RunEvent> events(UUID run, long upToSeq) {
        ArrayNode array = json.createArrayNode();
        jdbc.sql("select seq, event_type, node_id, token_id, occurred_at, data::text as data from event_log "
                        + "where run_id = :run and seq <= :upTo order by seq")
                .param("run", run).param("upTo", upToSeq)
                .query((rs, i) -> array.add(event(rs.getLong("seq"), rs.getString("event_type"),
                        rs.getString("node_id"), rs.getString("token_id"),
                        rs.getTimestamp("occurred_at").toInstant().toEpochMilli(), rs.getString("data"))))
                .list();
        return RunEvents.parse(array);
    }

    private ObjectNode event(long seq, String type, String node, String token, long at, String data) {
        ObjectNode event = json.createObjectNode();
        event.put("seq", seq).put("type", type).put("at", at).put("node", node).put("token", token);
        event.set("data", json.readTree(data));
        return event;
    }
}
