package io.tokenflow.signing;

import java.time.Instant;

/** A worker key just created: the only time its secret is shown. */
public record CreatedWorkerKey(String id, String name, String tenant, java.util.List<String> nodeTypes,
                               String secret, Instant createdAt) {
}
