package io.tokenflow.dlq;

import java.time.Instant;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * One parked task.
 *
 * @param input      the task's input, or {@code null} when it travelled by reference ({@code inputRef})
 * @param resolution {@code REQUEUED} or {@code DISCARDED} once resolved, else {@code null}
 */
public record DlqEntry(UUID id, UUID runId, String workflow, String node, String nodeType, String token, int iteration,
                       int attempts, String errorKind, String error, String errorCode, JsonNode input, String inputRef,
                       Instant createdAt, Instant resolvedAt, String resolution, String resolvedBy) {

    public boolean open() {
        return resolvedAt == null;
    }
}
