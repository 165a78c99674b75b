package io.tokenflow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

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
