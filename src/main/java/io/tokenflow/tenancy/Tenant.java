package io.tokenflow.tenancy;

import java.time.Instant;

/**
 * A tenant (workspace) and its quotas.
 *
 * @param maxRunsInFlight  most runs started and not yet ended at once; {@code null}: no limit
 * @param maxHopsPerMinute most hops (node executions ended) in the last minute before starts are refused;
 *                         {@code null}: no limit
 */
public record Tenant(String id, String name, Integer maxRunsInFlight, Integer maxHopsPerMinute, Instant createdAt,
                     String createdBy) {

    public Quotas quotas() {
        return new Quotas(maxRunsInFlight, maxHopsPerMinute);
    }

    /** A tenant's quotas; {@code null} is no limit. */
    public record Quotas(Integer maxRunsInFlight, Integer maxHopsPerMinute) {

        public static final Quotas NONE = new Quotas(null, null);
    }
}
