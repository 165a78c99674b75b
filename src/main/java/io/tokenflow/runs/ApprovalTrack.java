package io.tokenflow.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.JsonNode;

/**
 * Folds a run's approval events ({@code approval.requested}, {@code approval.escalated}, {@code approval.decided}) into
 * each approval's latest state, by approval id, in the order they were requested.
 */
final class ApprovalTrack {

    private final Map<String, Approval> approvals = new LinkedHashMap<>();

    void apply(LiveEvent event) {
        JsonNode data = event.data();
        String id = event.dataText("approval_id");
        if (id == null) {
            return;
        }
        switch (event.type()) {
            case "approval.requested" -> approvals.put(id, new Approval(id, event.node(), data.path("iteration").asInt(0),
                    event.dataText("title"), texts(data.get("approvers")), instant(data.get("timeout_at")), 0,
                    "pending", null, null, false, event.seq()));
            case "approval.escalated" -> approvals.computeIfPresent(id, (key, approval) -> approval.escalated(
                    texts(data.get("approvers")), data.path("level").asInt(approval.level() + 1),
                    instant(data.get("timeout_at"))));
            case "approval.decided" -> approvals.computeIfPresent(id, (key, approval) -> approval.decided(
                    "reject".equals(event.dataText("decision")) ? "rejected" : "approved", event.dataText("decided_by"),
                    event.dataText("comment"), data.path("automatic").asBoolean(false)));
            default -> {
            }
        }
    }

    /** Every approval of the run, pending or decided. */
    List<Approval> all() {
        return List.copyOf(approvals.values());
    }

    /** The newest approval at a node (pending or decided), or {@code null}. */
    Approval latestAt(String node) {
        Approval latest = null;
        for (Approval approval : approvals.values()) {
            if (node.equals(approval.node())) {
                latest = approval;
            }
        }
        return latest;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(item -> texts.add(item.asString()));
        }
        return texts;
    }

    private static Instant instant(JsonNode epochMillis) {
        return epochMillis == null || !epochMillis.canConvertToLong() ? null : Instant.ofEpochMilli(epochMillis.asLong());
    }

    /**
     * One approval as the run page shows it.
     *
     * @param state     {@code pending}, {@code approved} or {@code rejected}
     * @param automatic the decision was the escalation policy's, at the timeout
     */
    record Approval(String id, String node, int iteration, String title, List<String> approvers, Instant timeoutAt,
                    int level, String state, String decidedBy, String comment, boolean automatic, long requestedSeq) {

        Approval {
            approvers = List.copyOf(approvers);
        }

        public boolean pending() {
            return "pending".equals(state);
        }

        Approval escalated(List<String> newApprovers, int newLevel, Instant newTimeout) {
            return new Approval(id, node, iteration, title, newApprovers, newTimeout, newLevel, state, decidedBy,
                    comment, automatic, requestedSeq);
        }

        Approval decided(String decision, String by, String note, boolean timedOut) {
            return new Approval(id, node, iteration, title, approvers, timeoutAt, level, decision, by, note, timedOut,
                    requestedSeq);
        }
    }
}
