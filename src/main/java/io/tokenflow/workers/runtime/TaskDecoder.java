package io.tokenflow.workers.runtime;

import java.time.Instant;
import java.util.UUID;

import org.springframework.stereotype.Component;

import io.tokenflow.cas.CasStore;
import io.tokenflow.workers.Task;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/** Turns a token's raw fields into a {@link Task}, fetching an {@code input_ref} from content-addressed storage. */
@Component
class TaskDecoder {

    private final JsonMapper json;
    private final CasStore cas;

    TaskDecoder(JsonMapper json, CasStore cas) {
        this.json = json;
        this.cas = cas;
    }

    Task decode(TaskEntry entry) throws MalformedTaskException {
        UUID run = entry.runId().orElseThrow(() -> malformed(entry, "a run id (UUID)", entry.field("run")));
        String type = entry.field("type");
        return new Task(required(entry, "token"), run, required(entry, "node"), type == null ? entry.type() : type,
                number(entry, "iteration", 0), number(entry, "attempt", 1), input(entry),
                object(entry, "config"), emittedAt(entry), entry.field("traceparent"));
    }

    private JsonNode input(TaskEntry entry) throws MalformedTaskException {
        String reference = entry.field("input_ref");
        if (reference == null) {
            return object(entry, "input");
        }
        if (!CasStore.isReference(reference)) {
            throw malformed(entry, "input_ref to be cas://sha256:<hex>", reference);
        }
        try {
            return cas.getJson(reference);
        } catch (IllegalStateException e) {
            throw new MalformedTaskException(e.getMessage());
        }
    }

    private JsonNode object(TaskEntry entry, String field) throws MalformedTaskException {
        String text = entry.field(field);
        if (text == null || text.isEmpty()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            return json.readTree(text);
        } catch (JacksonException e) {
            throw malformed(entry, field + " to be JSON text", abbreviate(text));
        }
    }

    private static String required(TaskEntry entry, String field) throws MalformedTaskException {
        String value = entry.field(field);
        if (value == null || value.isBlank()) {
            throw malformed(entry, "a " + field + " field", "none");
        }
        return value;
    }

    private static int number(TaskEntry entry, String field, int fallback) throws MalformedTaskException {
        String value = entry.field(field);
        try {
            return value == null ? fallback : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw malformed(entry, field + " to be an integer", value);
        }
    }

    private static Instant emittedAt(TaskEntry entry) throws MalformedTaskException {
        String value = entry.field("emitted_at");
        try {
            return value == null ? null : Instant.ofEpochMilli(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw malformed(entry, "emitted_at to be epoch milliseconds", value);
        }
    }

    private static MalformedTaskException malformed(TaskEntry entry, String expected, String actual) {
        return new MalformedTaskException("Expected token " + entry.id() + " on " + entry.stream() + " to have "
                + expected + ", but found " + actual);
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }
}
