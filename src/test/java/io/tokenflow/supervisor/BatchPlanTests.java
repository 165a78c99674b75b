package io.tokenflow.supervisor;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.replay.EntryQuarantined;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.replay.RunEvents;
import io.tokenflow.quarantine.QuarantinedSeqs;
import tools.jackson.databind.node.ArrayNode;

class BatchPlanTests {

    private static final UUID RUN = UUID.randomUUID();
    private final List<ArrayNode> entries = events().runStarted(UUID.randomUUID(), "{}", "A")
            .emitted(null, "A", "tA", null).then()
            .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").then()
            .completed("B", "tB", "{}").runCompleted().entries();

    @Test
    void appliesANewRunsEventsInSeqOrderWhateverTheEntryOrder() {
        BatchPlan plan = BatchPlan.of(List.of(entry("3", 2), entry("1", 0), entry("2", 1)), Map.of(RUN, 0L));

        assertThat(plan.applied().get(RUN)).extracting(RunEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(plan.done()).containsExactlyInAnyOrder("1", "2", "3");
        assertThat(plan.waiting()).isEmpty();
        assertThat(plan.ended()).containsExactly(RUN);
    }

    @Test
    void skipsWhatIsLoggedAndStillLetsAnEndedRunGo() {
        BatchPlan plan = BatchPlan.of(List.of(entry("2", 1), entry("3", 2)), Map.of(RUN, 6L));

        assertThat(plan.applied()).isEmpty();
        assertThat(plan.done()).containsExactly("2", "3");
        assertThat(plan.ended()).containsExactly(RUN);
    }

    @Test
    void entriesAfterAGapWait() {
        BatchPlan plan = BatchPlan.of(List.of(entry("1", 0), entry("3", 2)), Map.of(RUN, 0L));

        assertThat(plan.applied().get(RUN)).extracting(RunEvent::seq).containsExactly(1L, 2L);
        assertThat(plan.done()).containsExactly("1");
        assertThat(plan.waiting()).containsExactly("3");
        assertThat(plan.ended()).isEmpty();
    }

    @Test
    void logsTheSeqsHeldByAnEntryInQuarantineAsQuarantinedAndGoesOnAfterThem() {
        Instant at = Instant.parse("2026-11-27T04:00:00Z");
        BatchPlan plan = BatchPlan.of(List.of(entry("1", 0), entry("3", 2)), Map.of(RUN, 0L),
                Map.of(RUN, new TreeMap<>(Map.of(3L, new QuarantinedSeqs(3, 4, 42, "2", at)))));

        assertThat(plan.applied().get(RUN)).extracting(RunEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(plan.applied().get(RUN).subList(2, 4)).containsExactly(EntryQuarantined.of(3, at, 42, "2"),
                EntryQuarantined.of(4, at, 42, "2"));
        assertThat(plan.done()).containsExactly("1", "3");
        assertThat(plan.waiting()).isEmpty();
        assertThat(plan.ended()).containsExactly(RUN);
    }

    @Test
    void waitsForASeqNoQuarantinedEntryHeld() {
        BatchPlan plan = BatchPlan.of(List.of(entry("3", 2)), Map.of(RUN, 2L),
                Map.of(RUN, new TreeMap<>(Map.of(4L, new QuarantinedSeqs(4, 4, 42, "x", Instant.EPOCH)))));

        assertThat(plan.applied()).isEmpty();
        assertThat(plan.waiting()).containsExactly("3");
    }

    @Test
    void entriesOfARunWithoutARowWhoseStartIsInQuarantineCanNeverBeLogged() {
        QuarantinedSeqs start = new QuarantinedSeqs(1, 2, 42, "1", Instant.EPOCH);
        BatchPlan plan = BatchPlan.of(List.of(entry("2", 1), entry("3", 2)), Map.of(),
                Map.of(RUN, new TreeMap<>(Map.of(1L, start))));

        assertThat(plan.applied()).isEmpty();
        assertThat(plan.waiting()).isEmpty();
        assertThat(plan.orphaned()).containsExactly(Map.entry("2", start), Map.entry("3", start));
    }

    @Test
    void entriesOfARunWithoutARowWait() {
        BatchPlan plan = BatchPlan.of(List.of(entry("2", 1)), Map.of());

        assertThat(plan.applied()).isEmpty();
        assertThat(plan.waiting()).containsExactly("2");
    }

    @Test
    void reportsASeqCarryingTwoDifferentEvents() {
        ArrayNode other = events().runStarted(UUID.randomUUID(), "{}", "A").entries().get(0);
        BatchPlan plan = BatchPlan.of(List.of(entry("1", 0), new EventsEntry("9", RUN, RunEvents.parse(other))),
                Map.of(RUN, 0L));

        assertThat(plan.problems()).singleElement().asString().contains("Expected seq 1 of run " + RUN);
        assertThat(plan.done()).containsExactly("1", "9");
    }

    private EventsEntry entry(String id, int index) {
        return new EventsEntry(id, RUN, RunEvents.parse(entries.get(index)));
    }
}
