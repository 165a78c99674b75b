package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * What a run's events (up to some point) left in its Redis state beside what {@link RunState} tracks: outputs by
 * node and by token, loop passes, the last loop iteration handed out, hop counts, and the events a token, a join
 * arrival, an approval or a parked task came from. One walk over the events, shared by {@link ResumePoint} (the
 * state before a failure) and {@link RecoveryPoint} (the state after the last logged event).
 */
final class RunTrail {

    final Map<String, TokenEmitted> emitted = new HashMap<>();
    final Map<String, JsonNode> context = new LinkedHashMap<>();
    final Map<String, JsonNode> outputs = new HashMap<>();
    final Map<String, ResumePoint.LoopPass> loops = new LinkedHashMap<>();
    final Map<String, Integer> reached = new LinkedHashMap<>();
    final Map<String, JoinArrived> arrived = new HashMap<>();
    final Map<String, ApprovalRequested> approvals = new HashMap<>();
    final Map<String, ApprovalEscalated> escalations = new HashMap<>();
    /** token → the attempt it was last sent to its workers as (1 when emitted or reprocessed, then each retry's) */
    final Map<String, Integer> attempts = new HashMap<>();
    /** token → the input it was last reprocessed with from the dead-letter queue, where an operator edited it */
    final Map<String, JsonNode> editedInputs = new HashMap<>();
    /** token → its {@code node.parked}, while it is parked in the dead-letter queue */
    final Map<String, NodeParked> parked = new LinkedHashMap<>();
    private final Set<String> reemitted = new HashSet<>();
    int lastIteration;
    long hops;
    /** when the run last began running: its start, or its last resume (a run deadline counts from there) */
    Instant runningSince;

    private RunTrail() {
    }

    static RunTrail of(List<RunEvent> events) {
        RunTrail trail = new RunTrail();
        events.forEach(trail::add);
        return trail;
    }

    private void add(RunEvent event) {
        if (event instanceof RunStarted || event instanceof RunResumed) {
            runningSince = event.at();
        }
        if (event instanceof TokenEmitted token) {
            emitted.put(token.token(), token);
            attempts.put(token.token(), 1);
            lastIteration = Math.max(lastIteration, token.iteration());
            if (!token.join() && !reemitted.contains(token.token())) {
                reached.merge(token.node(), 1, Integer::sum);
            }
        } else if (event instanceof RunResumed resumed) {
            reemitted.addAll(resumed.redone().values());
        } else if (event instanceof NodeCompleted done) {
            hops++;
            context.put(done.node(), done.output());
            outputs.put(done.token(), done.output());
            passes(done).ifPresentOrElse(passes -> loops.put(done.node(), new ResumePoint.LoopPass(passes, passes == 1
                            ? done.iteration() : loops.getOrDefault(done.node(), new ResumePoint.LoopPass(0, 0)).entry())),
                    () -> loops.remove(done.node()));
        } else if (event instanceof NodeFailed caught && caught.data().has("next_nodes")) {
            hops++;
            JsonNode error = JsonNodeFactory.instance.objectNode().set("error", caught.error());
            context.put(caught.node(), error);
            outputs.put(caught.token(), error);
        } else if (event instanceof NodeRetrying retrying) {
            attempts.put(retrying.token(), retrying.nextAttempt());
        } else if (event instanceof NodeParked park) {
            parked.put(park.token(), park);
        } else if (event instanceof NodeReprocessed reprocessed) {
            parked.remove(reprocessed.token());
            attempts.put(reprocessed.token(), 1);
            if (reprocessed.input() != null) {
                editedInputs.put(reprocessed.token(), reprocessed.input());
            }
        } else if (event instanceof NodeDiscarded || event instanceof NodeUnparked) {
            parked.remove(event.token());
        } else if (event instanceof JoinArrived arrival) {
            arrived.put(arrival.token(), arrival);
        } else if (event instanceof ApprovalRequested request) {
            approvals.put(request.approvalId(), request);
        } else if (event instanceof ApprovalEscalated escalated) {
            escalations.put(escalated.approvalId(), escalated);
        }
    }

    /** The pass count a loop node's completion left in the run's loops hash: its pass when it went round again. */
    private static Optional<Integer> passes(NodeCompleted done) {
        JsonNode loop = done.data().path("route").path("loop");
        return "again".equals(loop.path("action").asString("")) ? Optional.of(loop.path("pass").asInt())
                : Optional.empty();
    }
}
