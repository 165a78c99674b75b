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
