package io.tokenflow.runs;

import java.util.UUID;

/** A run that was started (or, for a repeated idempotency key, found). */
public record StartedRun(UUID id, UUID workflowId, String workflowName, Integer workflowVersion, String status,
                         boolean replayed) {
}
