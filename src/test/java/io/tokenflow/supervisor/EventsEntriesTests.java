package io.tokenflow.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.lettuce.core.StreamMessage;
import io.tokenflow.engine.replay.RunEvents;
import tools.jackson.databind.json.JsonMapper;

class EventsEntriesTests {

    private static final UUID RUN = UUID.randomUUID();
    private final JsonMapper json = JsonMapper.builder().build();
    private final EventsEntries entries = new EventsEntries(json);

    @Test
    void readsAnArrayOfEventsOrOneEventObject() {
        String array = "[ {\"seq\":2,\"type\":\"node.completed\",\"at\":1700000000000,\"node\":\"A\",\"token\":\"tA\","
                + "\"data\": {\"iteration\": 0, \"output\": {\"text\": \"a } b\"}}},\n {\"data\":{\"from\":\"A\"},\"seq\":3,"
                + "\"type\":\"token.emitted\",\"at\":1700000000000,\"node\":\"B\",\"token\":\"tB\"} ]";
        String object = "{\"seq\":4,\"type\":\"run.completed\",\"at\":1700000000000,\"node\":null,\"token\":null}";

        EventsEntries.Read read = entries.read(List.of(message("1-0", array), message("2-0", object)));

        assertThat(read.unreadable()).isEmpty();
        assertThat(read.entries()).extracting(EventsEntry::run).containsOnly(RUN);
        assertThat(read.entries().get(0).events()).isEqualTo(RunEvents.parse(json.readTree(array)));
        assertThat(read.entries().get(1).events()).isEqualTo(RunEvents.parse(json.readTree(object)));
    }

    @Test
    void setsAsideEntriesThatCannotBeRead() {
        String good = "[{\"seq\":1,\"type\":\"run.completed\",\"at\":1,\"data\":{}}]";

        EventsEntries.Read read = entries.read(List.of(message("1-0", good + " trailing"), message("2-0", "[1, 2]"),
                message("3-0", "[{\"seq\":1,"), message("4-0", "\"text\""),
                message("5-0", "[{\"seq\":1,\"type\":\"no.such\",\"at\":1}]"), message("6-0", good)));

        assertThat(read.unreadable()).extracting(EventsEntries.Unreadable::id)
                .containsExactly("1-0", "2-0", "3-0", "4-0", "5-0");
        assertThat(read.unreadable()).extracting(EventsEntries.Unreadable::run).containsOnly(RUN);
        assertThat(read.unreadable()).extracting(EventsEntries.Unreadable::firstSeq)
                .containsExactly(null, null, null, null, 1L);
        assertThat(read.unreadable().get(4).reason()).startsWith("Expected events-stream entry 5-0 of events to follow "
                + "docs/run-events.md, but ");
        assertThat(read.entries()).extracting(EventsEntry::id).containsExactly("6-0");
    }

    private static StreamMessage<String, String> message(String id, String events) {
        return new StreamMessage<>("events", id, Map.of("run", RUN.toString(), "events", events));
    }
}
