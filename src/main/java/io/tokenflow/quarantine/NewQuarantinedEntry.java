package io.tokenflow.quarantine;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * An entry to set aside, as its reader saw it.
 *
 * @param fields   the entry's fields as read from the stream
 * @param runId    the run it belongs to, or {@code null}
 * @param firstSeq the first seq of the run's events in it, or {@code null} when they could not be read
 */
public record NewQuarantinedEntry(int shard, String stream, String entryId, UUID runId, Long firstSeq, Long lastSeq,
                                  Map<String, String> fields, String reason) {

    public NewQuarantinedEntry {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(reason, "reason");
        fields = fields == null ? Map.of() : fields;
    }
}
