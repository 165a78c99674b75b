package io.tokenflow.engine.replay;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class RecoveryPointTests {

    private static final UUID WORKFLOW = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final String RUN = "00000000-0000-0000-0000-0000000000aa";
    private static final String ERROR = "{\"message\": \"busy\", \"kind\": \"transient\"}";

    /**
     * A fans out to B, C, E and H; D joins B and C. C arrived at D; B is waiting for its third attempt; E is parked in
     * the dead-letter queue; H asks for an approval, escalated once.
     */
    private static EventScript running() {
        return events().runStarted(WORKFLOW, "{\"trip\":\"Oslo\"}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{\"a\":1}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA")
                .emitted("A", "E", "tE", "tA").emitted("A", "H", "tH", "tA")
                .event("approval.requested", "H", "tH", ApprovalRequested.data("ap-1", 0, List.of("olga"), 5_000L,
                        "escalate", List.of("ivan"), "Sign?", null, "{\"a\":1}")).then()
                .completed("C", "tC", "{\"c\":3}").parked("C", "D", "tCD", "tC").arrived("D", "tCD", "C", 1, 2).then()
                .event("node.retrying", "B", "tB", NodeRetrying.data(0, 1, 3, 100, 1_000, "w-1", ERROR)).then()
                .event("node.retrying", "B", "tB", NodeRetrying.data(0, 2, 3, 200, 2_000, "w-1", ERROR)).then()
                .event("node.parked", "E", "tE", NodeParked.data(0, "dlq-1", "leg", 3, ERROR, "w-1",
                        "{\"a\":1}", null)).then()
                .event("approval.escalated", "H", "tH", ApprovalEscalated.data("ap-1", 0, 1, List.of("ivan"), 9_000L));
    }

    @Test
    void aRunningRunIsRebuiltWithItsTasksInFlightUnderTheirOwnTokensAndEverythingElseWaitingAsItWas() {
        RecoveryPoint point = RecoveryPoint.of(RUN, running().parsed()).orElseThrow();

        assertThat(point.lastSeq()).isEqualTo(15);
        assertThat(point.resend()).containsExactly(new RecoveryPoint.Resend(new ResumePoint.Redo("tB", "B", 0, "A",
                "tA", ResumePoint.Source.CHILD), 3, null));
        assertThat(point.arrivals()).containsExactly(new ResumePoint.Arrival("tCD", "D", 0, "C", "tC", "D#0", "C", 2));
        assertThat(point.parked()).singleElement().satisfies(parked -> {
            assertThat(parked.parked().dlqId()).isEqualTo("dlq-1");
            assertThat(parked.emission().from()).isEqualTo("A");
        });
        assertThat(point.approvals()).singleElement().satisfies(approval -> {
            assertThat(approval.approvalId()).isEqualTo("ap-1");
            assertThat(approval.token()).isEqualTo("tH");
            assertThat(approval.request().get("approvers").get(0).asString()).isEqualTo("ivan");
            assertThat(approval.request().get("level").asInt()).isEqualTo(1);
            assertThat(approval.request().get("timeout_at").asLong()).isEqualTo(9_000L);
            assertThat(approval.request().get("title").asString()).isEqualTo("Sign?");
        });
        assertThat(point.context()).containsOnlyKeys("A", "C");
        assertThat(point.hops()).isEqualTo(2);
        assertThat(point.runningSince()).isEqualTo(point.state().startedAt());
    }

    @Test
    void aReprocessedTaskIsSentAgainAsItsFirstAttemptAndNotKeptParked() {
        List<RunEvent> events = running().then()
                .event("node.reprocessed", "E", "tE", NodeReprocessed.data(0, "dlq-1", "olga", null)).parsed();

        RecoveryPoint point = RecoveryPoint.of(RUN, events).orElseThrow();

        assertThat(point.parked()).isEmpty();
        assertThat(point.resend()).extracting(resend -> resend.task().token() + "@" + resend.attempt())
                .containsExactly("tB@3", "tE@1");
    }

    @Test
    void aTaskReprocessedWithAnEditedInputIsSentAgainWithThatInput() {
        List<RunEvent> events = running().then()
                .event("node.reprocessed", "E", "tE", NodeReprocessed.data(0, "dlq-1", "olga", "{\"a\":2}")).parsed();

        RecoveryPoint point = RecoveryPoint.of(RUN, events).orElseThrow();

        assertThat(point.resend()).filteredOn(resend -> resend.task().token().equals("tE")).singleElement()
                .satisfies(resend -> assertThat(resend.editedInput().get("a").asInt()).isEqualTo(2));
        assertThat(point.resend()).filteredOn(resend -> resend.task().token().equals("tB")).singleElement()
                .satisfies(resend -> assertThat(resend.editedInput()).isNull());
    }

    @Test
    void onlyARunningRunHasARecoveryPoint() {
        EventScript done = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").runCompleted();
        EventScript failed = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .failed("A", "tA", "boom").runFailed("A", "Node A failed", 0);

        assertThat(RecoveryPoint.of(RUN, done.parsed())).isEmpty();
        assertThat(RecoveryPoint.of(RUN, failed.parsed())).isEmpty();
        assertThat(RecoveryPoint.of(RUN, List.of())).isEmpty();
    }
}
