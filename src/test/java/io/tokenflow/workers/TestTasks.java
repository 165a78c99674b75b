package io.tokenflow.workers;

import java.time.Instant;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Tasks and JSON for handler tests. */
public final class TestTasks {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private TestTasks() {
    }

    public static Task task(String type, String input, String config) {
        return new Task("tok_" + UUID.randomUUID().toString().substring(0, 18), UUID.randomUUID(), "node", type, 0, 1,
                json(input), json(config), Instant.now(), null);
    }

    public static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    /** The output of a completed result; fails the test with the failure otherwise. */
    public static JsonNode output(TaskResult result) {
        if (result instanceof TaskResult.Completed completed) {
            return completed.output();
        }
        throw new AssertionError("Expected a completed result, but got " + result);
    }

    public static TaskResult.Failed failure(TaskResult result) {
        if (result instanceof TaskResult.Failed failed) {
            return failed;
        }
        throw new AssertionError("Expected a failed result, but got " + result);
    }
}
