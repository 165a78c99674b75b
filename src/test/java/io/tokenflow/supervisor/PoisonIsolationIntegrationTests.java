package io.tokenflow.supervisor;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.tokenflow.IntegrationTest;
import io.tokenflow.engine.replay.EventScript;
import io.tokenflow.engine.replay.RunEvent;
import tools.jackson.databind.node.ArrayNode;

/**
 * A batch PostgreSQL refuses for one entry in it is split until that entry stands alone: it goes to the quarantine,
 * its run fails with the reason, and every other entry is written, each run's in seq order. The runs here have no
 * Redis state: their rows are failed directly.
 */
@IntegrationTest
class PoisonIsolationIntegrationTests {

    private static final int SHARD = 0;
    private static final String NUL_OUTPUT = "{\"text\": \"a\\u0000b\"}";

    @Autowired JdbcClient jdbc;
    @Autowired EventsEntries entries;
    @Autowired PoisonIsolation isolation;
    StoredRuns stored;
    UUID workflow;
    String stream;

    @BeforeEach
    void createWorkflow() {
        stored = new StoredRuns(jdbc);
        workflow = stored.workflow();
        stream = "test-events-" + UUID.randomUUID();
    }

    @Test
    void aBatchWithOnePoisonedEntryIsSplitUntilItStandsAloneAndEveryOtherEntryIsWritten() {
        List<UUID> runs = new ArrayList<>();
        List<List<ArrayNode>> steps = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            runs.add(UUID.randomUUID());
            steps.add(chain(i == 4 ? NUL_OUTPUT : "{\"a\": 1}").entries());
        }
        List<StreamMessage<String, String>> messages = new ArrayList<>();
        for (int step = 0; step < 5; step++) {
            for (int i = 0; i < runs.size(); i++) {
                messages.add(new StreamMessage<>(stream, (messages.size() + 1) + "-0", Map.of("run",
                        runs.get(i).toString(), "events", steps.get(i).get(step).toString())));
            }
        }
        UUID poisonedRun = runs.get(4);
        String poisonedEntry = (2 * runs.size() + 4 + 1) + "-0";

        EventLogWriter.Outcome outcome = isolation.write(SHARD, stream, entries.read(messages).entries(), messages);

        assertThat(outcome.done()).containsExactlyInAnyOrderElementsOf(messages.stream().map(StreamMessage::getId)
                .toList());
        assertThat(outcome.waiting()).isEmpty();
        runs.stream().filter(run -> !run.equals(poisonedRun)).forEach(run -> {
            assertThat(stored.status(run)).isEqualTo("COMPLETED");
            assertThat(stored.eventLog(run)).extracting(RunEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L,
                    8L, 9L);
        });
        Map<String, Object> quarantined = jdbc.sql("select * from quarantined_entries where stream = ?").param(stream)
                .query().singleRow();
        assertThat(quarantined).containsEntry("entry_id", poisonedEntry).containsEntry("run_id", poisonedRun)
                .containsEntry("first_seq", 4L).containsEntry("last_seq", 5L);
        assertThat((String) quarantined.get("raw")).contains("\"run\": \"" + poisonedRun + "\"")
                .contains("a\\\\u0000b");
        assertThat((String) quarantined.get("reason"))
                .startsWith("Expected PostgreSQL to store it, but it refused it: ");
        // its entries before and after the poisoned one are in the log; seqs 4 and 5 say where they went
        assertThat(stored.eventLog(poisonedRun)).extracting(event -> event.seq() + " " + event.type().wireName())
                .containsExactly("1 run.started", "2 token.emitted", "3 node.started", "4 entry.quarantined",
                        "5 entry.quarantined", "6 node.completed", "7 token.emitted", "8 node.completed",
                        "9 run.completed");
        assertThat(stored.status(poisonedRun)).isEqualTo("FAILED");
        assertThat(error(poisonedRun)).startsWith("Expected event-log entry " + poisonedEntry + " of run "
                + poisonedRun + " to be stored, but PostgreSQL refused it: ")
                .endsWith("; it is in quarantine " + quarantined.get("id"));
    }

    @Test
    void theEntriesOfARunWhoseStartIsRefusedAreQuarantinedWithItAndTheOthersWritten() {
        UUID refused = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        List<StreamMessage<String, String>> messages = new ArrayList<>();
        List<ArrayNode> refusedSteps = events().runStarted(workflow, NUL_OUTPUT, "A").emitted(null, "A", "tA", null)
                .then().started("A", "tA", "w-a").then().completed("A", "tA", "{}").runCompleted().entries();
        List<ArrayNode> otherSteps = chain("{}").entries();
        for (int step = 0; step < otherSteps.size(); step++) {
            if (step < refusedSteps.size()) {
                messages.add(message(messages.size() + 1, refused, refusedSteps.get(step)));
            }
            messages.add(message(messages.size() + 1, other, otherSteps.get(step)));
        }

        EventLogWriter.Outcome outcome = isolation.write(SHARD, stream, entries.read(messages).entries(), messages);

        assertThat(outcome.done()).hasSize(messages.size());
        assertThat(outcome.orphaned()).isEmpty();
        assertThat(stored.status(other)).isEqualTo("COMPLETED");
        assertThat(stored.status(refused)).isNull();
        List<String> reasons = jdbc.sql("select reason from quarantined_entries where stream = ? and run_id = ? "
                + "order by entry_id").param(stream).param(refused).query(String.class).list();
        assertThat(reasons).hasSize(refusedSteps.size());
        assertThat(reasons.get(0)).startsWith("Expected PostgreSQL to store it, but it refused it: ");
        assertThat(reasons.subList(1, reasons.size())).allSatisfy(reason -> assertThat(reason)
                .startsWith("Expected run " + refused + " to have a row for its events, but its run.started (stream "
                        + "entry 1-0) is in quarantine "));
    }

    @Test
    void aBatchOfOnlyGoodEntriesIsWrittenWhole() {
        UUID run = UUID.randomUUID();
        List<StreamMessage<String, String>> messages = new ArrayList<>();
        chain("{}").entries().forEach(step -> messages.add(new StreamMessage<>(stream, (messages.size() + 1) + "-0",
                Map.of("run", run.toString(), "events", step.toString()))));

        EventLogWriter.Outcome outcome = isolation.write(SHARD, stream, entries.read(messages).entries(), messages);

        assertThat(outcome.done()).hasSize(5);
        assertThat(stored.status(run)).isEqualTo("COMPLETED");
        assertThat(jdbc.sql("select count(*) from quarantined_entries where stream = ?").param(stream)
                .query(Long.class).single()).isZero();
    }

    private EventScript chain(String outputOfA) {
        return events().runStarted(workflow, "{}", "A").emitted(null, "A", "tA", null).then()
                .started("A", "tA", "w-a").then()
                .completed("A", "tA", outputOfA).emitted("A", "B", "tB", "tA").then()
                .completed("B", "tB", "{\"b\":2}").emitted("B", "C", "tC", "tB").then()
                .completed("C", "tC", "{\"c\":3}").runCompleted();
    }

    private StreamMessage<String, String> message(int id, UUID run, ArrayNode events) {
        return new StreamMessage<>(stream, id + "-0", Map.of("run", run.toString(), "events", events.toString()));
    }

    private String error(UUID run) {
        return jdbc.sql("select error from runs where id = ?").param(run).query(String.class).single();
    }
}
