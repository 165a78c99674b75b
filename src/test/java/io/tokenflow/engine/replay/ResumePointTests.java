package io.tokenflow.engine.replay;

import static io.tokenflow.engine.replay.EventScript.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;

class ResumePointTests {

    private static final UUID WORKFLOW = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    private static final String RUN = "00000000-0000-0000-0000-0000000000aa";

    /** A fans out to B and C, which D joins; C arrived at D, B failed, and the run failed with it. */
    private static EventScript failedBehindAJoin() {
        return events().runStarted(WORKFLOW, "{\"trip\":\"Oslo\"}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{\"a\":1}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .completed("C", "tC", "{\"c\":3}").parked("C", "D", "tCD", "tC").arrived("D", "tCD", "C", 1, 2).then()
                .failed("B", "tB", "sold out").runFailed("B", "Node B failed", 1);
    }

    @Test
    void aRunFailedAtANodeResumesFromThatNodeWithTheJoinArrivalWaitingAgain() {
        ResumePoint point = ResumePoint.of(RUN, failedBehindAJoin().parsed()).orElseThrow();

        assertThat(point.failedSeq()).isEqualTo(10);
        assertThat(point.redo()).containsExactly(new ResumePoint.Redo("tB", "B", 0, "A", "tA",
                ResumePoint.Source.CHILD));
        assertThat(point.redo().get(0).newToken(10)).isEqualTo(TokenIds.resumed("tB", 10)).isNotEqualTo("tB");
        assertThat(point.arrivals()).containsExactly(new ResumePoint.Arrival("tCD", "D", 0, "C", "tC", "D#0", "C", 2));
        assertThat(point.context()).containsOnlyKeys("A", "C");
        assertThat(point.outputs().get("tA").get("a").asInt()).isEqualTo(1);
        assertThat(point.hops()).isEqualTo(2);
        assertThat(point.state().execution("B", 0).status()).isEqualTo(NodeStatus.FAILED);
    }

    /** A's outer pass at iteration 4 entered loop I, which went back twice (iterations 5 and 6); I then failed. */
    private static EventScript failedInANestedLoop() {
        return events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").iteration(4).emitted("A", "I", "tI4", "tA").then()
                .completedAgain("I", "tI4", 1).iteration(5).emitted("I", "I", "tI5", "tI4").then()
                .completedAgain("I", "tI5", 2).iteration(6).emitted("I", "I", "tI6", "tI5").then()
                .failed("I", "tI6", "boom").runFailed("I", "Node I failed", 1);
    }

    @Test
    void aRunFailedInANestedLoopKeepsWhereTheLoopWasEnteredAndTheIterationsHandedOut() {
        ResumePoint point = ResumePoint.of(RUN, failedInANestedLoop().parsed()).orElseThrow();

        assertThat(point.loops()).containsExactly(Map.entry("I", new ResumePoint.LoopPass(2, 4)));
        assertThat(point.lastIteration()).isEqualTo(6);
        assertThat(point.reached()).containsExactly(Map.entry("A", 1), Map.entry("I", 3));
        assertThat(point.redo()).extracting(ResumePoint.Redo::iteration).containsExactly(6);
    }

    @Test
    void tokensAResumeEmittedAgainDoNotCountAsReachingTheirNodeTwice() {
        EventScript failedTwice = failedInANestedLoop().then().runResumed("ops", 10, "tI6", "tI6b")
                .emitted("I", "I", "tI6b", "tI5").then().failed("I", "tI6b", "boom again")
                .runFailed("I", "Node I failed", 1);

        ResumePoint point = ResumePoint.of(RUN, failedTwice.parsed()).orElseThrow();

        assertThat(point.reached()).containsEntry("I", 3);
        assertThat(point.redo()).extracting(ResumePoint.Redo::token).containsExactly("tI6b");
    }

    @Test
    void aRunFailedForInactivityResumesEveryTokenItDropped() {
        List<RunEvent> events = events().runStarted(WORKFLOW, "{}", "A", "B").emitted(null, "A", "tA", null)
                .emitted(null, "B", "tB", null).then().completed("A", "tA", "{}").then()
                .runFailed(null, "No activity within PT5M", 1).parsed();

        ResumePoint point = ResumePoint.of(RUN, events).orElseThrow();

        assertThat(point.redo()).containsExactly(new ResumePoint.Redo("tB", "B", 0, null, null,
                ResumePoint.Source.ENTRY));
        assertThat(point.arrivals()).isEmpty();
    }

    @Test
    void onlyARunWhoseLogEndsFailedHasAResumePoint() {
        assertThat(ResumePoint.of(RUN, RunReplayTests.sequential().parsed())).isEmpty();
        assertThat(ResumePoint.of(RUN, List.of())).isEmpty();
        assertThat(ResumePoint.of(RUN, failedBehindAJoin().then().runResumed("ops", 10, "tB", "tB2").parsed()))
                .isEmpty();
    }

    @Test
    void aResumedRunReplaysAsRunningAgainAndCompletesWhenItsRedoneWorkDoes() {
        RunState state = RunReplay.replay(failedBehindAJoin().then().runResumed("ops", 10, "tB", "tB2")
                .emitted("A", "B", "tB2", "tA").parked("C", "D", "tCD", "tC").arrived("D", "tCD", "C", 1, 2).then()
                .completed("B", "tB2", "{\"b\":2}").parked("B", "D", "tBD", "tB2").arrived("D", "tBD", "B", 2, 2)
                .joinCompleted("D", "tD", "tCD", "tBD").emitted(null, "D", "tD", null).then()
                .completed("D", "tD", "{}").runCompleted().parsed());

        assertThat(state.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(state.counter()).isZero();
        assertThat(state.error()).isNull();
        assertThat(state.execution("B", 0).status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(state.execution("B", 0).error()).isNull();
        assertThat(state.illegalMoves()).isEmpty();
    }
}
