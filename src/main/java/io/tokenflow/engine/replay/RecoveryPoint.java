package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a running run whose Redis state was lost is rebuilt from its events alone: the state after its last logged
 * event; the work in flight then sent again under the same token ids, each at the attempt it was last sent as (so a
 * worker that already did it recognises the repeat by its token, and a late completion of it is still routed once);
 * the join arrivals waiting again; the approvals pending and the tasks parked in the dead-letter queue kept as they
 * were; and what the run's Redis state held (outputs by node, loop passes, the last loop iteration, hops). Unlike a
 * {@link ResumePoint} nothing is done again that the log says happened: the log is where the run goes on from.
 *
 * @param lastSeq   the seq of the run's last logged event: its events go on from there
 * @param resend    the tasks in flight, in the order they were emitted, with the attempt each was last sent as
 * @param arrivals  the arrivals waiting at joins
 * @param approvals the approvals pending, each with its request as the run's pending approvals keep it (escalations
 *                  applied)
 * @param parked    the tasks parked in the dead-letter queue
 * @param runningSince when the run last began running (its start or its last resume): its deadline counts from there
 */
public record RecoveryPoint(RunState state, long lastSeq, List<Resend> resend, List<ResumePoint.Arrival> arrivals,
                            List<PendingApproval> approvals, List<Parked> parked, Map<String, JsonNode> context,
                            Map<String, JsonNode> outputs, Map<String, ResumePoint.LoopPass> loops, long hops,
                            int lastIteration, Map<String, Integer> reached,
                            Instant runningSince) {

    public RecoveryPoint {
        resend = List.copyOf(resend);
        arrivals = List.copyOf(arrivals);
        approvals = List.copyOf(approvals);
        parked = List.copyOf(parked);
    }

    /** A task in flight, sent again under its own token id as {@code attempt}. */
    /**
     * A task to send again.
     *
     * @param editedInput the input an operator last reprocessed it with from the dead-letter queue, or {@code null}:
     *                    its input is then made again from the run's input and the logged outputs
     */
    public record Resend(ResumePoint.Redo task, int attempt, JsonNode editedInput) {
    }

    /** A task parked in the dead-letter queue, and the emission of its token. */
    public record Parked(NodeParked parked, TokenEmitted emission) {
    }

    /** An approval pending: its id, the human node and token it is for, and its request (JSON object). */
    public record PendingApproval(String approvalId, String node, String token, JsonNode request) {
    }

    /** The recovery point of a run whose events replay to a running run; empty for any other run. */
    public static Optional<RecoveryPoint> of(String runId, List<RunEvent> events) {
        if (events.isEmpty()) {
            return Optional.empty();
        }
        RunState state = RunReplay.replay(events);
        if (state.status() != RunStatus.RUNNING) {
            return Optional.empty();
        }
        RunTrail trail = RunTrail.of(events);
        List<ResumePoint.Arrival> arrivals = ResumePoint.arrivals(state, trail);
        List<String> waiting = arrivals.stream().map(ResumePoint.Arrival::token).toList();
        List<Resend> resend = new ArrayList<>();
        state.inFlight().keySet().stream()
                .filter(token -> !waiting.contains(token) && !trail.parked.containsKey(token))
                .sorted((a, b) -> Long.compare(trail.emitted.get(a).seq(), trail.emitted.get(b).seq()))
                .forEach(token -> resend.add(new Resend(ResumePoint.redo(runId, trail.emitted.get(token)),
                        trail.attempts.getOrDefault(token, 1), trail.editedInputs.get(token))));
        List<PendingApproval> approvals = new ArrayList<>();
        state.pendingApprovals().keySet().forEach(id -> approvals.add(pending(trail, id)));
        List<Parked> parked = trail.parked.values().stream()
                .filter(park -> state.inFlight().containsKey(park.token()))
                .map(park -> new Parked(park, trail.emitted.get(park.token()))).toList();
        return Optional.of(new RecoveryPoint(state, state.lastSeq(), resend, arrivals, approvals, parked,
                trail.context, trail.outputs, trail.loops, trail.hops, trail.lastIteration, trail.reached,
                trail.runningSince));
    }

    private static PendingApproval pending(RunTrail trail, String approvalId) {
        ApprovalRequested requested = trail.approvals.get(approvalId);
        ObjectNode request = ((ObjectNode) requested.header().data()).deepCopy();
        ApprovalEscalated escalated = trail.escalations.get(approvalId);
        if (escalated != null) {
            request.set("approvers", escalated.header().data().path("approvers"));
            request.put("level", escalated.level());
            request.set("timeout_at", escalated.header().data().path("timeout_at"));
        }
        return new PendingApproval(approvalId, requested.node(), requested.token(), request);
    }
}
