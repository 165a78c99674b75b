package io.tokenflow.signing;

import java.time.Instant;

/** A worker key as listed: everything but the secret. */
public record WorkerKeySummary(String id, String name, boolean builtIn, Instant createdAt, String createdBy,
                               Instant revokedAt) {

    static WorkerKeySummary of(WorkerKey key) {
        return new WorkerKeySummary(key.id(), key.name(), key.builtIn(), key.createdAt(), key.createdBy(),
                key.revokedAt());
    }
}
