package io.tokenflow.supervisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.RunEvents;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads events-stream entries (fields {@code run} and {@code events}, see {@code docs/run-events.md}). An entry that
 * can never be read (no run id, malformed events, or deleted while pending) is set aside with its fields and the
 * reason, for the quarantine: retrying it cannot help.
 */
@Component
class EventsEntries {

    private final JsonMapper json;

    EventsEntries(JsonMapper json) {
        this.json = json;
    }

    Read read(List<StreamMessage<String, String>> messages) {
        List<EventsEntry> entries = new ArrayList<>(messages.size());
        List<Unreadable> unreadable = new ArrayList<>();
        for (StreamMessage<String, String> message : messages) {
            try {
                entries.add(readOne(message.getId(), message.getBody()));
            } catch (RuntimeException e) {
                unreadable.add(unreadable(message, e));
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

    /** What can still be told of an unreadable entry: the run it names and the seqs it holds, when they read. */
    private Unreadable unreadable(StreamMessage<String, String> message, RuntimeException e) {
        Map<String, String> fields = message.getBody() == null ? Map.of() : message.getBody();
        String reason = "Expected events-stream entry " + message.getId() + " of " + message.getStream()
                + " to follow docs/run-events.md, but " + e.getMessage();
        UUID run = null;
        try {
            run = fields.get("run") == null ? null : UUID.fromString(fields.get("run"));
        } catch (IllegalArgumentException notARunId) {
            // the entry names no run
        }
        List<Long> seqs = new ArrayList<>();
        try {
            JsonNode events = json.readTree(fields.getOrDefault("events", ""));
            Iterable<JsonNode> each = events.isArray() ? events : List.of(events);
            for (JsonNode event : each) {
                if (event.path("seq").isIntegralNumber()) {
                    seqs.add(event.path("seq").asLong());
                }
            }
        } catch (RuntimeException noSeqs) {
            seqs.clear();
        }
        return new Unreadable(message.getId(), fields, reason, run, seqs.isEmpty() ? null : min(seqs),
                seqs.isEmpty() ? null : max(seqs));
    }

    private static Long min(List<Long> seqs) {
        return seqs.stream().min(Long::compare).orElseThrow();
    }

    private static Long max(List<Long> seqs) {
        return seqs.stream().max(Long::compare).orElseThrow();
    }

    /** The readable entries, in stream order, and the unreadable ones. */
    record Read(List<EventsEntry> entries, List<Unreadable> unreadable) {
    }

    /**
     * An entry that cannot be read.
     *
     * @param run      the run it names, or null when its field {@code run} is no run id
     * @param firstSeq the first seq among its events, or null when none can be read; {@code lastSeq} likewise
     */
    record Unreadable(String id, Map<String, String> fields, String reason, UUID run, Long firstSeq, Long lastSeq) {
    }
}
