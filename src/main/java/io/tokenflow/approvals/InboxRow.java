package io.tokenflow.approvals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One pending approval as the inbox shows it: the approval, the fields of its detail, and whether the signed-in person
 * may decide it.
 */
public record InboxRow(ApprovalRecord approval, List<FormValue> fields, boolean mayDecide) {

    public InboxRow {
        fields = List.copyOf(fields);
    }

    public boolean overdue() {
        return approval.timeoutAt() != null && !approval.timeoutAt().isAfter(Instant.now());
    }

    /** The SLA badge's text: the time left, how long overdue, or that there is no deadline. */
    public String sla() {
        if (approval.timeoutAt() == null) {
            return "no deadline";
        }
        Duration left = Duration.between(Instant.now(), approval.timeoutAt());
        return left.isNegative() || left.isZero() ? "overdue " + span(left.negated()) : span(left) + " left";
    }

    /** How long ago it was requested ("12 min ago"). */
    public String age() {
        return span(Duration.between(approval.createdAt(), Instant.now())) + " ago";
    }

    private static String span(Duration duration) {
        if (duration.toDays() > 0) {
            return duration.toDays() + " d " + duration.toHoursPart() + " h";
        }
        if (duration.toHours() > 0) {
            return duration.toHours() + " h " + duration.toMinutesPart() + " min";
        }
        return duration.toMinutes() > 0 ? duration.toMinutes() + " min" : Math.max(0, duration.toSeconds()) + " s";
    }
}
