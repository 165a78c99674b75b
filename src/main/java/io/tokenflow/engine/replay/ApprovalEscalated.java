package io.tokenflow.engine.replay;

import java.util.List;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;

/** A pending approval timed out and now waits for another group of approvers ({@code approvers}, {@code level}). */
public record ApprovalEscalated(EventHeader header, int iteration, String approvalId, List<String> approvers, int level)
        implements NodeExecutionEvent {

    public ApprovalEscalated {
        approvers = List.copyOf(approvers);
    }

    static ApprovalEscalated read(EventHeader header, EventJson data) {
        return new ApprovalEscalated(header.requireNodeAndToken("approval.escalated"), data.iteration(),
                data.requiredText("approval_id"), data.texts("approvers"), data.count("level"));
    }

    /** The data of an {@code approval.escalated} event; {@code timeoutAt} in epoch ms, or {@code null}. */
    public static String data(String approvalId, int iteration, int level, List<String> approvers, Long timeoutAt) {
        return new EventDataText().text("approval_id", approvalId).number("iteration", iteration)
                .number("level", level).texts("approvers", approvers).number("timeout_at", timeoutAt).end();
    }

    @Override
    public RunEventType type() {
        return RunEventType.APPROVAL_ESCALATED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        return current;
    }
}
