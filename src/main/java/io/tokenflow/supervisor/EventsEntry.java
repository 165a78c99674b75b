package io.tokenflow.supervisor;

import java.util.List;
import java.util.UUID;

import io.tokenflow.engine.replay.RunEvent;

/** One events-stream entry: the events of one atomic step of one run, in seq order. */
record EventsEntry(String id, UUID run, List<RunEvent> events) {

    EventsEntry {
        events = List.copyOf(events);
    }
}
