package io.tokenflow.engine.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

class StatusTransitionsTests {

    @Test
    void nodesFollowSeed002sPathAndMayAlwaysBeCancelledUntilFinished() {
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.PENDING)).containsOnly(NodeStatus.READY, NodeStatus.CANCELLED);
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.READY)).containsOnly(NodeStatus.DISPATCHED, NodeStatus.CANCELLED);
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.DISPATCHED)).containsOnly(NodeStatus.RUNNING,
                NodeStatus.COMPLETED, NodeStatus.FAILED, NodeStatus.CANCELLED);
        // a running attempt that fails transiently and is retried is dispatched again (node.retrying)
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.RUNNING)).containsOnly(NodeStatus.DISPATCHED,
                NodeStatus.COMPLETED, NodeStatus.FAILED, NodeStatus.CANCELLED);
        assertThat(EnumSet.of(NodeStatus.COMPLETED, NodeStatus.FAILED, NodeStatus.CANCELLED))
                .allMatch(NodeStatus::isFinished);
    }

    @Test
    void nodesNeverMoveBackwardsExceptWhenAResumedRunDispatchesWhatItFailedAtOrDropped() {
        assertThat(NodeStatusTransitions.allows(NodeStatus.RUNNING, NodeStatus.READY)).isFalse();
        assertThat(NodeStatusTransitions.allows(NodeStatus.COMPLETED, NodeStatus.CANCELLED)).isFalse();
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.COMPLETED)).isEmpty();
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.FAILED)).containsOnly(NodeStatus.READY);
        assertThat(NodeStatusTransitions.targetsOf(NodeStatus.CANCELLED)).containsOnly(NodeStatus.READY,
                NodeStatus.PENDING);
        assertThat(NodeStatusTransitions.sourcesOf(NodeStatus.PENDING)).containsOnly(NodeStatus.CANCELLED);
        assertThat(NodeStatusTransitions.sourcesOf(NodeStatus.CANCELLED)).containsOnly(NodeStatus.PENDING,
                NodeStatus.READY, NodeStatus.DISPATCHED, NodeStatus.RUNNING);
    }

    @Test
    void anExecutionReopenedByAResumedRunStartsAfresh() {
        NodeExecution failed = new NodeExecution(new NodeExecutionKey("charge", 0), NodeStatus.FAILED, "t1", "w1", null,
                tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("message", "declined"),
                java.time.Instant.EPOCH, java.time.Instant.EPOCH, java.time.Instant.EPOCH);

        NodeExecution ready = failed.move(NodeStatus.READY, 9, e -> e.withToken("t2"), move -> { });

        assertThat(ready).isEqualTo(new NodeExecution(failed.key(), NodeStatus.READY, "t2", null, null, null, null,
                null, null));
    }

    @Test
    void runsStartOnceAndEndOnce() {
        assertThat(RunStatusTransitions.allows(RunStatus.PENDING, RunStatus.RUNNING)).isTrue();
        assertThat(RunStatusTransitions.allows(RunStatus.RUNNING, RunStatus.COMPLETED)).isTrue();
        assertThat(RunStatusTransitions.allows(RunStatus.PENDING, RunStatus.COMPLETED)).isFalse();
        assertThat(RunStatusTransitions.allows(RunStatus.COMPLETED, RunStatus.FAILED)).isFalse();
        assertThat(RunStatusTransitions.sourcesOf(RunStatus.FAILED)).containsOnly(RunStatus.PENDING, RunStatus.RUNNING);
        // a failed run may be resumed (run.resumed); a completed or cancelled one stays as it is
        assertThat(RunStatusTransitions.targetsOf(RunStatus.FAILED)).containsOnly(RunStatus.RUNNING);
        assertThat(RunStatusTransitions.targetsOf(RunStatus.COMPLETED)).isEmpty();
        assertThat(RunStatusTransitions.targetsOf(RunStatus.CANCELLED)).isEmpty();
        assertThat(EnumSet.allOf(RunStatus.class)).filteredOn(RunStatus::isFinished)
                .containsOnly(RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.CANCELLED);
    }

    @Test
    void anExecutionIgnoresAMoveToItsOwnStatusAndReportsAnIllegalOne() {
        NodeExecution pending = NodeExecution.created(new NodeExecutionKey("J", 0));
        java.util.List<IllegalMove> rejected = new java.util.ArrayList<>();

        assertThat(pending.move(NodeStatus.PENDING, 3, e -> e.withToken("x"), rejected::add)).isSameAs(pending);
        assertThat(pending.move(NodeStatus.RUNNING, 4, e -> e.withToken("x"), rejected::add)).isSameAs(pending);
        assertThat(rejected).containsExactly(new IllegalMove("J#0", "PENDING", "RUNNING", 4));
    }
}
