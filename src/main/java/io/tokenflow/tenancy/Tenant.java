package io.tokenflow.tenancy;

import java.time.Instant;

/**
 * A tenant (workspace) and its quotas.
 *
 * @param maxRunsInFlight most runs started and not yet ended at once; {@code null}: no limit
 */
public record Tenant(String id, String name, Integer maxRunsInFlight, Instant createdAt, String createdBy) {
}
