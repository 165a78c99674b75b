package io.tokenflow.supervisor;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

/** How values of events become SQL parameters. */
final class SqlValues {

    private SqlValues() {
    }

    static OffsetDateTime time(Instant at) {
        return at == null ? null : OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    }

    /** JSON text for a {@code cast(? as jsonb)} parameter; JSON null stays JSON null, absence is SQL null. */
    static String json(JsonNode value) {
        return value == null ? null : value.toString();
    }

    /** A status set from a transition table as an SQL list literal, e.g. {@code 'PENDING', 'RUNNING'}. */
    static String statuses(Set<? extends Enum<?>> statuses) {
        return statuses.stream().map(status -> "'" + status.name() + "'").collect(Collectors.joining(", "));
    }
}
