package io.tokenflow.quarantine;

import java.time.Instant;
import java.util.UUID;

/**
 * One stream entry set aside.
 *
 * @param runId    the run it names, or {@code null} when it names none (or not one that can be read)
 * @param firstSeq the first of the run's events it held, or {@code null} when unknown
 * @param raw      every field of the entry, as a JSON object of strings
 */
public record QuarantinedEntry(long id, Instant quarantinedAt, int shard, String stream, String entryId, UUID runId,
                               Long firstSeq, Long lastSeq, String raw, String reason) {
}
