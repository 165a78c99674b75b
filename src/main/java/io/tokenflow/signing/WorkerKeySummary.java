package io.tokenflow.signing;

import java.time.Instant;
import java.util.List;

/** A worker key as listed: everything but the secret ({@code nodeTypes} null: every type). */
public record WorkerKeySummary(String id, String name, boolean builtIn, String tenant, List<String> nodeTypes,
                               Instant createdAt, String createdBy, Instant revokedAt) {

    static WorkerKeySummary of(WorkerKey key) {
        return new WorkerKeySummary(key.id(), key.name(), key.builtIn(), key.tenant(), key.nodeTypes() == null ? null
                : key.nodeTypes().stream().sorted().toList(), key.createdAt(), key.createdBy(), key.revokedAt());
    }
}
