package io.tokenflow.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.tokenflow.tracing.TraceIds;

/**
 * The fields of a token on a task stream, as docs/worker-protocol.md defines them. Large inputs travel as
 * {@code input_ref}; {@code traceparent} names the run's trace and the token's node span ({@link TraceIds}).
 */
public record TaskEntry(String token, UUID run, String node, String type, int iteration, int attempt,
                        String input, String inputRef, String config, long emittedAt, String from) {

    public List<String> fields() {
        return fields(token);
    }

    /** The fields, with a {@code traceparent} naming the node span of {@code spanToken} (a map element's: its map's). */
    public List<String> fields(String spanToken) {
        List<String> fields = new ArrayList<>(24);
        add(fields, "token", token);
        add(fields, "run", run.toString());
        add(fields, "node", node);
        add(fields, "type", type);
        add(fields, "iteration", Integer.toString(iteration));
        add(fields, "attempt", Integer.toString(attempt));
        if (inputRef != null) {
            add(fields, "input_ref", inputRef);
        } else {
            add(fields, "input", input);
        }
        add(fields, "config", config);
        add(fields, "emitted_at", Long.toString(emittedAt));
        add(fields, "from", from == null ? "" : from);
        add(fields, "traceparent", TraceIds.traceparent(run, spanToken));
        return fields;
    }

    /** The 0-based index of the inline input's value in {@link #fields()}; -1 when the input travels by reference. */
    static int inputValueIndex(List<String> fields) {
        for (int name = 0; name < fields.size(); name += 2) {
            if ("input".equals(fields.get(name))) {
                return name + 1;
            }
        }
        return -1;
    }

    private static void add(List<String> fields, String name, String value) {
        fields.add(name);
        fields.add(value);
    }
}
