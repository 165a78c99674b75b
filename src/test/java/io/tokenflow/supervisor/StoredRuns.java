package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunEvents;
import io.tokenflow.engine.replay.RunReplay;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeExecutionKey;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Reads back what the supervisor wrote and compares it with a replay of the event log. */
final class StoredRuns {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;

    StoredRuns(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** A workflow with one version, for the runs' foreign key. */
    UUID workflow() {
        UUID id = UUID.randomUUID();
        jdbc.sql("insert into workflows (id, tenant_id, name, latest_version, created_by, created_at, updated_at) "
                + "values (:id, 'default', :name, 1, 'test', now(), now())").param("id", id).param("name", "supervised-" + id).update();
        jdbc.sql("insert into workflow_versions (workflow_id, version, dsl, ir, content_hash, author, created_at) "
                + "values (:id, 1, '{}'::json, '{}'::json, 'test', 'test', now())").param("id", id).update();
        return id;
    }

    String status(UUID run) {
        return jdbc.sql("select status from runs where id = :run").param("run", run).query(String.class).optional()
                .orElse(null);
    }

    List<RunEvent> eventLog(UUID run) {
        ArrayNode events = JsonNodeFactory.instance.arrayNode();
        jdbc.sql("select seq, event_type, occurred_at, node_id, token_id, data::text as data from event_log "
                        + "where run_id = :run order by seq").param("run", run)
                .query((rs, i) -> {
                    var event = events.addObject().put("seq", rs.getLong("seq")).put("type", rs.getString("event_type"))
                            .put("at", rs.getObject("occurred_at", OffsetDateTime.class).toInstant().toEpochMilli())
                            .put("node", rs.getString("node_id")).put("token", rs.getString("token_id"));
                    return event.set("data", JSON.readTree(rs.getString("data")));
                }).list();
        return RunEvents.parse(events);
    }

    long eventCount(UUID run) {
        return jdbc.sql("select count(*) from event_log where run_id = :run").param("run", run).query(Long.class).single();
    }

    Map<String, String> nodeStatuses(UUID run) {
        return jdbc.sql("select node_id, iteration, status from node_executions where run_id = :run").param("run", run)
                .query((rs, i) -> Map.entry(rs.getString("node_id") + "#" + rs.getInt("iteration"), rs.getString("status")))
                .list().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    JsonNode outputs(UUID run) {
        String outputs = jdbc.sql("select outputs::text from runs where id = :run").param("run", run)
                .query(String.class).single();
        return outputs == null ? null : JSON.readTree(outputs);
    }

    /** Replaying the stored event log gives exactly the stored node executions and run row. */
    RunState assertMatchesReplay(UUID run) {
        RunState replayed = RunReplay.replay(eventLog(run));
        List<NodeExecution> stored = jdbc.sql("select * from node_executions where run_id = :run").param("run", run)
                .query((rs, i) -> new NodeExecution(new NodeExecutionKey(rs.getString("node_id"), rs.getInt("iteration")),
                        NodeStatus.valueOf(rs.getString("status")), rs.getString("token_id"), rs.getString("worker"),
                        json(rs.getString("output")), json(rs.getString("error")), instant(rs.getObject("ready_at", OffsetDateTime.class)),
                        instant(rs.getObject("started_at", OffsetDateTime.class)),
                        instant(rs.getObject("ended_at", OffsetDateTime.class)))).list();
        assertThat(stored).containsExactlyInAnyOrderElementsOf(replayed.executions().values());
        Map<String, Object> row = jdbc.sql("select status, error, started_at, ended_at, outputs::text as outputs "
                + "from runs where id = :run").param("run", run).query().singleRow();
        assertThat(RunStatus.valueOf((String) row.get("status"))).isEqualTo(replayed.status());
        assertThat(row.get("error")).isEqualTo(replayed.error());
        assertThat(((java.sql.Timestamp) row.get("started_at")).toInstant()).isEqualTo(replayed.startedAt());
        assertThat(row.get("ended_at") == null ? null : ((java.sql.Timestamp) row.get("ended_at")).toInstant())
                .isEqualTo(replayed.endedAt());
        if (replayed.status() == RunStatus.COMPLETED) {
            assertThat(JSON.readTree((String) row.get("outputs"))).isEqualTo(JSON.valueToTree(replayed.outputs()));
        }
        return replayed;
    }

    private static JsonNode json(String text) {
        return text == null ? null : JSON.readTree(text);
    }

    private static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
