package io.tokenflow.approvals;

import java.util.Locale;
import java.util.UUID;

import org.springframework.stereotype.Service;

import io.tokenflow.coordinator.PendingApprovals;
import io.tokenflow.security.Caller;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.ForbiddenException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.StorableJson;

/**
 * Decides an approval for a person (or a script acting as one): only a listed approver may, and only once. The decision
 * itself is one atomic Lua step on the run's state; PostgreSQL follows from the event it appends.
 */
@Service
public class DecideApproval {

    static final int COMMENT_LIMIT = 4_000;

    private final ApprovalQueries approvals;
    private final PendingApprovals pending;

    DecideApproval(ApprovalQueries approvals, PendingApprovals pending) {
        this.approvals = approvals;
        this.pending = pending;
    }

    /** The approval as it stands after the decision. */
    public ApprovalRecord decide(UUID id, String decision, String comment, Caller caller) {
        boolean approved = parse(decision);
        if (comment != null && comment.length() > COMMENT_LIMIT) {
            throw new BadRequestException(422, "Expected a comment of at most " + COMMENT_LIMIT + " characters, but it "
                    + "has " + comment.length(), "/comment");
        }
        StorableJson.check(comment, "/comment");
        ApprovalRecord approval = approvals.find(id)
                .orElseThrow(() -> new NotFoundException("Expected an approval with id " + id + ", but there is none"));
        if (!approval.pending()) {
            throw alreadyDecided(approval);
        }
        PendingApprovals.Pending live = pending.find(approval.runId(), id)
                .orElseThrow(() -> new ConflictException("Expected approval " + id + " to be pending, but it was "
                        + "decided a moment ago or its run has ended"));
        if (!Approvers.allows(live.approvers(), caller)) {
            throw new ForbiddenException("Expected one of " + live.approvers() + " to decide this approval, but "
                    + caller.username() + " is not one of them");
        }
        PendingApprovals.DecisionOutcome outcome = pending.decide(live,
                new PendingApprovals.Decision(approved, caller.username(), blankToNull(comment), false));
        if (outcome == PendingApprovals.DecisionOutcome.NOT_PENDING) {
            throw new ConflictException("Expected approval " + id + " to be pending, but someone decided it first");
        }
        if (outcome == PendingApprovals.DecisionOutcome.NOT_RUNNING) {
            throw new ConflictException("Expected the run " + approval.runId() + " of approval " + id + " to be "
                    + "running, but it has ended");
        }
        return new ApprovalRecord(approval.id(), approval.runId(), approval.nodeId(), approval.title(),
                approval.instructions(),
                approved ? "APPROVED" : "REJECTED", live.approvers(), approval.escalationPolicy(),
                approval.escalationLevel(), approval.payload(), approval.payloadRef(), approved ? "approve" : "reject",
                caller.username(), blankToNull(comment), approval.createdAt(), approval.timeoutAt(),
                java.time.Instant.now(), approval.workflowName());
    }

    private static boolean parse(String decision) {
        String normalised = decision == null ? "" : decision.trim().toLowerCase(Locale.ROOT);
        return switch (normalised) {
            case "approve" -> true;
            case "reject" -> false;
            default -> throw new BadRequestException(422, "Expected decision 'approve' or 'reject', but found "
                    + (decision == null ? "none" : "'" + decision + "'"), "/decision");
        };
    }

    private static ConflictException alreadyDecided(ApprovalRecord approval) {
        String by = approval.decidedBy() == null ? "" : " by " + approval.decidedBy();
        return new ConflictException("Expected approval " + approval.id() + " to be pending, but it is already "
                + approval.status().toLowerCase(Locale.ROOT) + by);
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
