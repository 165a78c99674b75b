package io.tokenflow.workers.runtime;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.cas.CasStore;
import io.tokenflow.tenancy.RunTenants;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the fields of a completion signal (docs/worker-protocol.md §3). Outputs larger than {@link #INLINE_LIMIT}
 * bytes are stored in content-addressed storage and travel as {@code output_ref}.
 */
@Component
class CompletionEncoder {

    static final int INLINE_LIMIT = 64 * 1024;
    private static final String JSON = "application/json";

    private final JsonMapper json;
    private final CasStore cas;
    private final RunTenants tenants;

    CompletionEncoder(JsonMapper json, CasStore cas, RunTenants tenants) {
        this.json = json;
        this.cas = cas;
        this.tenants = tenants;
    }

    Map<String, String> encode(TaskEntry entry, TaskResult result, String worker, long startedAt) {
        Map<String, String> fields = new LinkedHashMap<>(12);
        fields.put("token", entry.field("token"));
        fields.put("run", entry.field("run"));
        fields.put("node", entry.field("node"));
        if (result instanceof TaskResult.Completed completed) {
            fields.put("status", "completed");
            putOutput(fields, entry.field("run"), json.writeValueAsString(completed.output()));
            if (completed.decision() != null) {
                fields.put("decision", json.writeValueAsString(completed.decision()));
            }
        } else {
            fields.put("status", "failed");
            fields.put("error", error((TaskResult.Failed) result));
            fields.put("attempt", entry.field("attempt"));
        }
        fields.put("worker", worker);
        fields.put("started_at", Long.toString(startedAt));
        return fields;
    }

    private void putOutput(Map<String, String> fields, String run, String output) {
        if (output.length() * 3L <= INLINE_LIMIT) {
            fields.put("output", output);
            return;
        }
        byte[] bytes = output.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= INLINE_LIMIT) {
            fields.put("output", output);
        } else {
            fields.put("output_ref", cas.put(tenants.requireOfRun(UUID.fromString(run)), bytes, JSON));
        }
    }

    private String error(TaskResult.Failed failed) {
        ObjectNode error = JsonNodeFactory.instance.objectNode();
        error.put("message", failed.message());
        error.put("kind", failed.kind().label());
        error.put("code", failed.code());
        return json.writeValueAsString(error);
    }
}
