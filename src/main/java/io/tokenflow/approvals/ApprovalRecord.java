package io.tokenflow.approvals;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/**
 * An approval as PostgreSQL keeps it (from the run's events).
 *
 * @param approvers  who may decide now: user names and {@code role:<name>} entries (the escalation group once
 *                   escalated)
 * @param payload    the human node's input, or null when it is stored in CAS ({@code payloadRef})
 * @param timeoutAt  when the escalation policy applies, or null
 */
public record ApprovalRecord(UUID id, UUID runId, String nodeId, String title, String instructions, String status,
                             List<String> approvers,
                             String escalationPolicy, int escalationLevel, JsonNode payload, String payloadRef,
                             String decision, String decidedBy, String comment, Instant createdAt, Instant timeoutAt,
                             Instant decidedAt, String workflowName) {

    public ApprovalRecord {
        approvers = List.copyOf(approvers);
    }

    public boolean pending() {
        return "PENDING".equals(status);
    }

    /** The time left before the timeout as people read it ("3 h 12 min", "overdue"), or null without a timeout. */
    public String timeLeft() {
        if (timeoutAt == null) {
            return null;
        }
        java.time.Duration left = java.time.Duration.between(Instant.now(), timeoutAt);
        if (left.isNegative() || left.isZero()) {
            return "overdue";
        }
        long hours = left.toHours();
        long minutes = left.toMinutesPart();
        return hours > 0 ? hours + " h " + minutes + " min" : Math.max(1, left.toMinutes()) + " min";
    }
}
