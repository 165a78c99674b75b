package io.tokenflow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.designer.CreateWorkflow;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Workflow fixture files ({@code src/test/resources/workflows/}) under unique names, for tests sharing a database. */
public final class TestWorkflows {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private TestWorkflows() {
    }

    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The fixture's JSON with its name replaced. */
    public static String fixture(String name, String workflowName) {
        ObjectNode workflow = (ObjectNode) JSON.readTree(read(name));
        workflow.put("name", workflowName);
        return workflow.toString();
    }

    /**
     * A {@code RUNNING} runs row of a new workflow made from {@code valid/sequential}, for tests that write a run's
     * events or approvals themselves (no engine involved).
     */
    public static UUID runningRunRow(CreateWorkflow creating, JdbcClient jdbc) {
        UUID workflow = creating.create(JSON.readTree(fixture("valid/sequential", unique("rows"))), "test").id();
        UUID run = UUID.randomUUID();
        jdbc.sql("insert into runs (id, workflow_id, workflow_version, status, created_at) values (?, ?, 1, 'RUNNING', ?)")
                .params(run, workflow, Timestamp.from(Instant.now())).update();
        return run;
    }

    public static String read(String name) {
        try (var in = TestWorkflows.class.getResourceAsStream("/workflows/" + name + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("Expected a fixture /workflows/" + name + ".json");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
