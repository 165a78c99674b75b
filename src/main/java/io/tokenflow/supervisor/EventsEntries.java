package io.tokenflow.supervisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvents;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads events-stream entries (fields {@code run} and {@code events}, see {@code docs/run-events.md}). An entry that
 * can never be read (no run id, malformed events, or deleted while pending) is logged whole and set aside to be
 * acknowledged: retrying it cannot help.
 */
@Component
class EventsEntries {

    private static final Log log = LogFactory.getLog(EventsEntries.class);

    private final JsonMapper json;

    EventsEntries(JsonMapper json) {
        this.json = json;
    }

    Read read(List<StreamMessage<String, String>> messages) {
        List<EventsEntry> entries = new ArrayList<>(messages.size());
        List<String> unreadable = new ArrayList<>();
        for (StreamMessage<String, String> message : messages) {
            try {
                entries.add(readOne(message.getId(), message.getBody()));
            } catch (RuntimeException e) {
                log.error("Expected events-stream entry " + message.getId() + " of " + message.getStream()
                        + " to follow docs/run-events.md, but " + e.getMessage() + "; it is dropped: "
                        + message.getBody());
                unreadable.add(message.getId());
            }
        }
        return new Read(entries, unreadable);
    }

    private EventsEntry readOne(String id, Map<String, String> fields) {
        if (fields == null || fields.isEmpty()) {
            throw new IllegalArgumentException("it has no fields (deleted while pending)");
        }
        String run = fields.get("run");
        String events = fields.get("events");
        if (run == null || events == null) {
            throw new IllegalArgumentException("it lacks the field 'run' or 'events'");
        }
        return new EventsEntry(id, UUID.fromString(run), RunEvents.parse(events, json));
    }

    /** The readable entries, in stream order, and the ids of the unreadable ones. */
    record Read(List<EventsEntry> entries, List<String> unreadable) {
    }
}
