package io.tokenflow.engine.replay;

import java.util.List;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;

/**
 * A token reached a human node and was consumed (−1) by the approval it created; the node's execution is
 * {@code RUNNING} (waiting for people) and the run cannot complete until the approval is decided. The data holds the
 * request: {@code approval_id}, {@code approvers}, {@code timeout_at}, {@code escalation_policy}, {@code title},
 * {@code input}.
 */
public record ApprovalRequested(EventHeader header, int iteration, String approvalId) implements NodeExecutionEvent {

    static ApprovalRequested read(EventHeader header, EventJson data) {
        return new ApprovalRequested(header.requireNodeAndToken("approval.requested"), data.iteration(),
                data.requiredText("approval_id"));
    }

    /**
     * The data of an {@code approval.requested} event, which the run's pending approvals also keep.
     *
     * @param timeoutAt epoch ms, or {@code null}
     * @param input     the node's input as JSON text (or a {@code $ref} object)
     */
    public static String data(String approvalId, int iteration, List<String> approvers, Long timeoutAt,
                              String escalationPolicy, List<String> escalateTo, String title, String instructions,
                              String input) {
        return new EventDataText().text("approval_id", approvalId).number("iteration", iteration)
                .texts("approvers", approvers).number("timeout_at", timeoutAt)
                .text("escalation_policy", escalationPolicy).texts("escalate_to", escalateTo).number("level", 0)
                .text("title", title).text("instructions", instructions).raw("input", input).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.APPROVAL_REQUESTED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.consume(token());
        fold.awaitApproval(this);
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current.move(NodeStatus.RUNNING, seq(), execution -> execution.withStartedAt(at()), rejected);
    }
}
