package io.tokenflow.live;

import java.util.List;
import java.util.UUID;

/** The events of one atomic step of one run, as one events-stream entry carried them, in seq order. */
public record LiveEntry(UUID run, List<LiveEvent> events) {

    public LiveEntry {
        events = List.copyOf(events);
    }

    /** True when any event's type starts with {@code prefix} (e.g. {@code "approval."}). */
    public boolean has(String prefix) {
        return events.stream().anyMatch(event -> event.type().startsWith(prefix));
    }
}
