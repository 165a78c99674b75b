package io.tokenflow.workers.runtime;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A token as read from a task stream: where it came from and its raw fields, before any parsing.
 *
 * @param stream the task stream, e.g. {@code wf.tasks.function:{0}}
 * @param shard  the shard of that stream; the completion goes to the same shard
 * @param id     the stream entry id, used only to acknowledge the entry
 * @param type   the worker type of the stream, which picks the handler
 */
record TaskEntry(String stream, int shard, String id, String type, Map<String, String> fields) {

    String field(String name) {
        return fields.get(name);
    }

    /** Whether the entry names its token, run and node, so a completion (even a failed one) can be reported. */
    boolean identified() {
        return present("token") && present("run") && present("node");
    }

    /** The run id, when the entry has a well-formed one. */
    Optional<UUID> runId() {
        String run = field("run");
        if (run == null || run.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(run));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "TaskEntry[" + stream + " " + id + " token=" + field("token") + " run=" + field("run") + " node="
                + field("node") + "]";
    }

    private boolean present(String name) {
        String value = field(name);
        return value != null && !value.isBlank();
    }
}
