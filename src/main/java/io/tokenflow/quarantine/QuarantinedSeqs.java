package io.tokenflow.quarantine;

import java.time.Instant;

/**
 * The seqs of a run's events that a quarantined entry held.
 *
 * @param quarantineId its quarantine row
 * @param entryId      the stream entry
 * @param at           when it was set aside
 */
public record QuarantinedSeqs(long first, long last, long quarantineId, String entryId, Instant at) {
}
