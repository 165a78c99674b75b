package io.tokenflow.coordinator;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.designer.CreateWorkflow;
import io.tokenflow.runs.StartRun;
import io.tokenflow.runs.StartRunCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Creates fixture workflows, starts runs and reads their durable outcome from PostgreSQL. */
final class EngineHarness {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final CreateWorkflow creating;
    private final StartRun starting;
    private final JdbcClient jdbc;

    EngineHarness(CreateWorkflow creating, StartRun starting, JdbcClient jdbc) {
        this.creating = creating;
        this.starting = starting;
        this.jdbc = jdbc;
    }

    /** Creates the fixture under a unique name; returns that name. */
    String workflow(String fixture) {
        try (var in = getClass().getResourceAsStream("/workflows/" + fixture + ".json")) {
            ObjectNode dsl = (ObjectNode) JSON.readTree(in);
            dsl.put("name", dsl.get("name").asString() + "-" + UUID.randomUUID().toString().substring(0, 8));
            return creating.create(dsl, "test").name();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    UUID start(String workflow, String inputs) {
        return starting.start(new StartRunCommand(workflow, null, null, inputs == null ? null : JSON.readTree(inputs),
                null), "test").id();
    }

    String status(UUID run) {
        return jdbc.sql("select status from runs where id = :id").param("id", run).query(String.class).optional()
                .orElse("NONE");
    }

    void awaitStatus(UUID run, String status) {
        await().atMost(Duration.ofSeconds(60)).until(() -> status.equals(status(run)));
    }

    void awaitAll(List<UUID> runs, String status, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> jdbc.sql(
                        "select count(*) from runs where id in (:ids) and status = :status")
                .param("ids", runs).param("status", status).query(Long.class).single() == runs.size());
    }

    Map<String, Object> run(UUID run) {
        return jdbc.sql("select status, final_counter, error, outputs::text as outputs from runs where id = :id")
                .param("id", run).query().singleRow();
    }

    /** Each node's status (first iteration) by node id. */
    Map<String, String> nodeStatuses(UUID run) {
        Map<String, String> statuses = new java.util.TreeMap<>();
        jdbc.sql("select node_id, status from node_executions where run_id = :id").param("id", run)
                .query((rs, i) -> statuses.put(rs.getString(1), rs.getString(2))).list();
        return statuses;
    }

    JsonNode output(UUID run, String node) {
        return jdbc.sql("select output::text from node_executions where run_id = :id and node_id = :node")
                .param("id", run).param("node", node).query(String.class).optional().map(JSON::readTree).orElse(null);
    }

    List<String> eventTypes(UUID run) {
        return jdbc.sql("select event_type from event_log where run_id = :id order by seq").param("id", run)
                .query(String.class).list();
    }

    /** The nodes of the run's {@code node.completed} events, in log order. */
    List<String> completedNodes(UUID run) {
        return jdbc.sql("select node_id from event_log where run_id = :id and event_type = 'node.completed' "
                + "order by seq").param("id", run).query(String.class).list();
    }

    List<Long> eventSeqs(UUID run) {
        return jdbc.sql("select seq from event_log where run_id = :id order by seq").param("id", run)
                .query(Long.class).list();
    }
}
