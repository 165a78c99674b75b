package io.tokenflow.coordinator;

import java.util.UUID;

/**
 * A member of a shard's due-times set, parsed: {@code retry <run> <token> <node>} (a backoff is over),
 * {@code timeout <run> <token> <node>} (an attempt outlived its node's {@code timeout_s}) or {@code deadline <run>} (a
 * run's deadline). The Lua steps write the timeout and deadline members (the prelude's {@code timeout_member});
 * {@link #retry} writes the retry ones.
 *
 * @param token the token, or {@code null} for a deadline
 * @param node  the node, or {@code null} for a deadline
 */
record DueMember(String kind, UUID run, String token, String node) {

    static final String RETRY = "retry";
    static final String TIMEOUT = "timeout";
    static final String DEADLINE = "deadline";

    static DueMember parse(String member) {
        String[] parts = member.split(" ");
        return new DueMember(parts[0], UUID.fromString(parts[1]), parts.length > 2 ? parts[2] : null,
                parts.length > 3 ? parts[3] : null);
    }

    static String retry(UUID run, String token, String node) {
        return RETRY + " " + run + " " + token + " " + node;
    }
}
