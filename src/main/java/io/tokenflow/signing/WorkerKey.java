package io.tokenflow.signing;

import java.time.Instant;

/**
 * A worker key: its id goes in a signal's {@code key} field, its secret keys the HMAC.
 *
 * @param nodeTypes the worker types whose tokens it may report on, or null for every type
 * @param revokedAt signals written to Redis from then on are refused; null while the key is valid
 */
record WorkerKey(String id, String name, String secret, boolean builtIn, Instant createdAt, String createdBy,
                 java.util.Set<String> nodeTypes, Instant revokedAt, String tenant) {

    /** Whether the key passes a signal Redis wrote at {@code writtenAt}, checked at {@code now}. */
    boolean validFor(Instant writtenAt, Instant now, java.time.Duration maxAge) {
        return revokedAt == null || (writtenAt.isBefore(revokedAt) && now.isBefore(revokedAt.plus(maxAge)));
    }
}
