package io.tokenflow.engine.replay;

import static io.tokenflow.engine.replay.EventScript.events;
import static io.tokenflow.engine.replay.EventScript.millisOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;

class RunReplayTests {

    private static final UUID WORKFLOW = UUID.fromString("00000000-0000-0000-0000-00000000000a");

    static EventScript sequential() {
        return events().runStarted(WORKFLOW, "{\"city\":\"Oslo\"}", "A").emitted(null, "A", "tA", null).then()
                .started("A", "tA", "w-a").then()
                .completed("A", "tA", "{\"a\":1}").emitted("A", "B", "tB", "tA").then()
                .started("B", "tB", "w-b").then()
                .completed("B", "tB", "{\"b\":2}").emitted("B", "C", "tC", "tB").then()
                .completed("C", "tC", "{\"c\":3}").runCompleted();
    }

    @Test
    void replaysASequentialRunToCompletion() {
        RunState state = RunReplay.replay(sequential().parsed());

        assertThat(state.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(state.counter()).isZero();
        assertThat(state.inFlight()).isEmpty();
        assertThat(state.lastSeq()).isEqualTo(10);
        assertThat(state.startedAt()).isEqualTo(Instant.ofEpochMilli(millisOf(1)));
        assertThat(state.endedAt()).isEqualTo(Instant.ofEpochMilli(millisOf(10)));
        assertThat(state.inputs().get("city").asString()).isEqualTo("Oslo");
        assertThat(state.executions().values()).extracting(NodeExecution::status).containsOnly(NodeStatus.COMPLETED);
        assertThat(state.path()).extracting(step -> step.from() + "->" + step.to() + ":" + step.token())
                .containsExactly("null->A:tA", "A->B:tB", "B->C:tC");
        assertThat(state.outputs()).containsOnlyKeys("C");
        assertThat(state.outputs().get("C").get("c").asInt()).isEqualTo(3);
        assertThat(state.illegalMoves()).isEmpty();
    }

    @Test
    void keepsEachExecutionsWorkerOutputAndTimes() {
        RunState state = RunReplay.replay(sequential().parsed());

        NodeExecution a = state.execution("A", 0);
        assertThat(a.worker()).isEqualTo("w-1");
        assertThat(a.token()).isEqualTo("tA");
        assertThat(a.readyAt()).isEqualTo(Instant.ofEpochMilli(millisOf(2)));
        assertThat(a.startedAt()).isEqualTo(Instant.ofEpochMilli(millisOf(3)));
        assertThat(a.endedAt()).isEqualTo(Instant.ofEpochMilli(millisOf(4)));
        assertThat(a.output().get("a").asInt()).isEqualTo(1);
        NodeExecution c = state.execution("C", 0);
        assertThat(c.startedAt()).as("a fast worker's start comes from node.completed")
                .isEqualTo(Instant.ofEpochMilli(millisOf(9) - 5));
    }

    @Test
    void stopsAfterTheRequestedSeq() {
        RunState state = RunReplay.replay(sequential().parsed(), 5);

        assertThat(state.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(state.lastSeq()).isEqualTo(5);
        assertThat(state.counter()).isEqualTo(1);
        assertThat(state.inFlight()).containsExactly(Map.entry("tB", "B"));
        assertThat(state.execution("B", 0).status()).isEqualTo(NodeStatus.DISPATCHED);
        assertThat(state.execution("C", 0)).isNull();
        assertThat(state.endedAt()).isNull();
    }

    @Test
    void fansOutAndJoinsBackIn() {
        EventScript script = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .completed("B", "tB", "{\"b\":1}").parked("B", "J", "pB", "tB").arrived("J", "pB", "B", 1, 2);
        RunState waiting = RunReplay.replay(script.parsed());

        assertThat(waiting.pendingJoins()).containsExactly(Map.entry("J#0", Map.of("B", "pB")));
        assertThat(waiting.execution("J", 0).status()).isEqualTo(NodeStatus.PENDING);
        assertThat(waiting.counter()).isEqualTo(2);
        assertThat(waiting.inFlight()).containsOnlyKeys("tC", "pB");

        script.then().completed("C", "tC", "{\"c\":2}").parked("C", "J", "pC", "tC").arrived("J", "pC", "C", 2, 2)
                .joinCompleted("J", "jJ", "pB", "pC").emitted(null, "J", "jJ", null).then()
                .completed("J", "jJ", "{\"merged\":true}").runCompleted();
        RunState done = RunReplay.replay(script.parsed());

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.counter()).isZero();
        assertThat(done.pendingJoins()).isEmpty();
        assertThat(done.inFlight()).isEmpty();
        assertThat(done.execution("J", 0).status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(done.execution("J", 0).token()).isEqualTo("jJ");
        assertThat(done.outputs()).containsOnlyKeys("J");
    }

    @Test
    void aFailedNodeFailsTheRunAndCancelsTheRest() {
        List<RunEvent> events = events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null).then()
                .completed("A", "tA", "{}").emitted("A", "B", "tB", "tA").emitted("A", "C", "tC", "tA").then()
                .started("C", "tC", "w-c").then()
                .failed("B", "tB", "boom").runFailed("B", "Node 'B' failed: boom", 1).parsed();
        RunState state = RunReplay.replay(events);

        assertThat(state.status()).isEqualTo(RunStatus.FAILED);
        assertThat(state.error()).isEqualTo("Node 'B' failed: boom");
        assertThat(state.counter()).isZero();
        assertThat(state.inFlight()).isEmpty();
        assertThat(state.execution("B", 0).status()).isEqualTo(NodeStatus.FAILED);
        assertThat(state.execution("B", 0).error().get("message").asString()).isEqualTo("boom");
        assertThat(state.execution("C", 0).status()).isEqualTo(NodeStatus.CANCELLED);
        assertThat(state.execution("C", 0).endedAt()).isEqualTo(state.endedAt());
        assertThat(state.execution("A", 0).status()).isEqualTo(NodeStatus.COMPLETED);
    }

    @Test
    void aCancelledRunCancelsEveryUnfinishedExecution() {
        RunState state = RunReplay.replay(events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null)
                .then().runCancelled("alice", 1).parsed());

        assertThat(state.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(state.error()).isEqualTo("Cancelled by alice");
        assertThat(state.counter()).isZero();
        assertThat(state.execution("A", 0).status()).isEqualTo(NodeStatus.CANCELLED);
    }

    @Test
    void ignoresARepeatedEventWithTheSameSeq() {
        List<RunEvent> events = new ArrayList<>(sequential().parsed());
        events.add(4, events.get(3));
        events.add(events.get(9));

        assertThat(RunReplay.replay(events)).isEqualTo(RunReplay.replay(sequential().parsed()));
    }

    @Test
    void refusesARepeatedSeqWithDifferentContents() {
        List<RunEvent> events = new ArrayList<>(sequential().parsed());
        RunEvent other = RunEvents.parse(events().runStarted(WORKFLOW, "{}").emitted(null, "X", "tX", null).json())
                .get(1);
        events.add(2, other);

        assertThatThrownBy(() -> RunReplay.replay(events)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Expected a repeated seq 2 to carry the same event");
    }

    @Test
    void refusesGapsAndOutOfOrderEvents() {
        List<RunEvent> events = sequential().parsed();
        List<RunEvent> gap = new ArrayList<>(events);
        gap.remove(4);
        List<RunEvent> swapped = new ArrayList<>(events);
        swapped.set(3, events.get(4));
        swapped.set(4, events.get(3));

        assertThatThrownBy(() -> RunReplay.replay(gap)).hasMessageContaining("Expected seq 5 after seq 4, but found seq 6");
        assertThatThrownBy(() -> RunReplay.replay(swapped)).hasMessageContaining("Expected seq 4 after seq 3, but found seq 5");
        assertThatThrownBy(() -> RunReplay.replay(events.subList(1, events.size())))
                .hasMessageContaining("Expected seq 1 after seq 0");
    }

    @Test
    void recordsAnIllegalNodeMoveWithoutApplyingIt() {
        RunState state = RunReplay.replay(events().runStarted(WORKFLOW, "{}", "A").emitted(null, "A", "tA", null)
                .completed("A", "tA", "{}").started("A", "tA", "late").parsed());

        assertThat(state.execution("A", 0).status()).isEqualTo(NodeStatus.COMPLETED);
        assertThat(state.illegalMoves()).singleElement().satisfies(move -> {
            assertThat(move.subject()).isEqualTo("A#0");
            assertThat(move.describe()).contains("from COMPLETED to RUNNING (event 4)");
        });
    }

    @Test
    void keepsLoopIterationsApart() {
        RunState state = RunReplay.replay(events().runStarted(WORKFLOW, "{}", "L").emitted(null, "L", "t0", null)
                .completed("L", "t0", "{\"n\":0}").iteration(1).emitted("L", "L", "t1", "t0")
                .completed("L", "t1", "{\"n\":1}").runCompleted().parsed());

        assertThat(state.executions()).hasSize(2);
        assertThat(state.execution("L", 1).output().get("n").asInt()).isEqualTo(1);
        assertThat(state.outputs()).as("L emitted tokens, so it is not terminal").isEmpty();
    }
}
