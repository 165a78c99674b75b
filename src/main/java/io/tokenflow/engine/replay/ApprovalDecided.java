package io.tokenflow.engine.replay;

import java.util.List;
import java.util.function.Consumer;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import tools.jackson.databind.JsonNode;

/**
 * A person (or, on a timeout, the system) decided an approval: the human node completes with {@code output} (its input
 * plus the decision) and its next tokens follow; a reject with no rejection path fails the node ({@code error}) and
 * the run.
 */
public record ApprovalDecided(EventHeader header, int iteration, String approvalId, String decision,
                              String decidedBy, boolean automatic, JsonNode output, JsonNode error)
        implements NodeExecutionEvent {

    static ApprovalDecided read(EventHeader header, EventJson data) {
        return new ApprovalDecided(header.requireNodeAndToken("approval.decided"), data.iteration(),
                data.requiredText("approval_id"), data.requiredText("decision"), data.text("decided_by"),
                data.has("automatic") && data.flag("automatic"), data.json("output"), data.json("error"));
    }

    /**
     * The data of an {@code approval.decided} event.
     *
     * @param output the node's output (JSON text or a {@code $ref} object), or {@code null} for a reject with no
     *               rejection path, which fails the node
     */
    public static String data(String approvalId, int iteration, boolean approved, String decidedBy, boolean automatic,
                              String comment, List<String> nextNodes, String output) {
        EventDataText data = new EventDataText().text("approval_id", approvalId).number("iteration", iteration)
                .text("decision", approved ? "approve" : "reject").text("decided_by", decidedBy)
                .flag("automatic", automatic).text("comment", comment).texts("next_nodes", nextNodes);
        return (output != null ? data.raw("output", output) : data.raw("error", new EventDataText()
                .text("message", "Rejected by " + decidedBy + ", and the node has no rejection path")
                .text("kind", "rejected").end())).end();
    }

    public boolean approved() {
        return "approve".equals(decision);
    }

    @Override
    public RunEventType type() {
        return RunEventType.APPROVAL_DECIDED;
    }

    @Override
    public void applyTo(RunFold fold) {
        fold.decideApproval(this);
        fold.execute(this);
    }

    @Override
    public NodeExecution advance(NodeExecution current, Consumer<IllegalMove> rejected) {
        if (output == null) {
            return current.move(NodeStatus.FAILED, seq(), execution -> execution.withError(error).withEndedAt(at()),
                    rejected);
        }
        return current.move(NodeStatus.COMPLETED, seq(), execution -> execution.withOutput(output).withEndedAt(at())
                .withWorker(decidedBy), rejected);
    }
}
