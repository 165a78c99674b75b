package io.tokenflow.engine.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.tokenflow.engine.routing.TokenIds;
import io.tokenflow.engine.runs.RunStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Where a failed run resumes from, worked out from its events alone: the state just before the step that failed it,
 * the work to do again (the token a node failed or was discarded with in that step, every token the failure dropped,
 * every approval it left pending), the join arrivals to wait again, and what the run's Redis state held (outputs by
 * node, loop passes, the last loop iteration handed out, hops) so routing goes on as if the failure had not happened.
 *
 * @param failedSeq the seq of the {@code run.failed} event the run resumes from
 * @param redo      the work to do again, in the order it was emitted
 * @param arrivals  the arrivals waiting at joins when the run failed
 * @param context   each node's latest output as the run's context kept it (a caught failure keeps {@code {error}})
 * @param outputs   token → the output its node completed with (what a child token's input was made from)
 * @param loops     loop node → its passes in the current activation (loops that were going round)
 * @param hops      completions routed so far (the run's hop count)
 * @param lastIteration the last loop iteration the run handed out (the highest any token was emitted at)
 * @param reached   node → how many tokens reached it (a node's {@code limits.max_hops} counts them): emitted to it
 *                  without parking at a join, re-emissions of a resume not counted again
 */
public record ResumePoint(RunState state, long failedSeq, List<Redo> redo, List<Arrival> arrivals,
                          Map<String, JsonNode> context, Map<String, JsonNode> outputs, Map<String, LoopPass> loops,
                          long hops, int lastIteration, Map<String, Integer> reached) {

    public ResumePoint {
        redo = List.copyOf(redo);
        arrivals = List.copyOf(arrivals);
    }

    /**
     * A loop going round when the run failed.
     *
     * @param passes how many times it went back in its current activation
     * @param entry  the iteration it was entered at (where its exit goes on)
     */
    public record LoopPass(int passes, int entry) {
    }

    /** How a token to do again came about: what its input was made from. */
    public enum Source {
        /** an entry token: the run's input (or the node's input mapping) */
        ENTRY,
        /** a join's token: its dependencies' outputs by id (or the node's input mapping) */
        JOIN,
        /** a child of {@code parent}: the output of {@code from} passed on (or the node's input mapping) */
        CHILD
    }

    /**
     * A token to emit again under a new id ({@link #newToken}): its node, iteration and where it came from.
     *
     * @param token the token the failure dropped or failed with
     */
    public record Redo(String token, String node, int iteration, String from, String parent, Source source) {

        /** The id the token is re-emitted under (a new id: the work is done again, not absorbed as a repeat). */
        public String newToken(long failedSeq) {
            return TokenIds.resumed(token, failedSeq);
        }
    }

    /**
     * An arrival waiting at a join when the run failed; it waits again under its own id.
     *
     * @param field      the joins hash field ({@code node#iteration})
     * @param dependency the dependency it arrived from
     */
    public record Arrival(String token, String node, int iteration, String from, String parent, String field,
                          String dependency, int expected) {
    }

    /**
     * The resume point of a run whose last event is {@code run.failed}; empty when the run's last event is not (it
     * did not fail, or it was already resumed).
     */
    public static Optional<ResumePoint> of(String runId, List<RunEvent> events) {
        if (events.isEmpty() || !(events.get(events.size() - 1) instanceof RunFailed failed)
                || RunReplay.replay(events).status() != RunStatus.FAILED) {
            return Optional.empty();
        }
        int step = events.size() - 1;
        List<String> failedTokens = new ArrayList<>();
        if (step > 0 && failingEvent(events.get(step - 1))) {
            step--;
            failedTokens.add(events.get(step).token());
        }
        RunState before = RunReplay.replay(events, failed.seq() - 1);
        RunTrail trail = RunTrail.of(events.subList(0, step));
        Map<String, TokenEmitted> emitted = trail.emitted;
        List<Arrival> arrivals = arrivals(before, trail);
        List<String> waiting = arrivals.stream().map(Arrival::token).toList();
        List<Redo> redo = new ArrayList<>();
        before.inFlight().keySet().stream().filter(token -> !waiting.contains(token))
                .forEach(token -> redo.add(redo(runId, emitted.get(token))));
        failedTokens.forEach(token -> redo.add(redo(runId, emitted.get(token))));
        before.pendingApprovals().keySet().forEach(approval ->
                redo.add(redo(runId, emitted.get(trail.approvals.get(approval).token()))));
        redo.sort((a, b) -> Long.compare(emitted.get(a.token()).seq(), emitted.get(b.token()).seq()));
        return Optional.of(new ResumePoint(before, failed.seq(), redo, arrivals, trail.context, trail.outputs,
                trail.loops, trail.hops, trail.lastIteration, trail.reached));
    }

    /** The arrivals waiting at the joins of {@code state}, with the emissions they came from. */
    static List<Arrival> arrivals(RunState state, RunTrail trail) {
        List<Arrival> arrivals = new ArrayList<>();
        state.pendingJoins().forEach((field, byDependency) -> byDependency.forEach((dependency, token) -> {
            TokenEmitted emission = trail.emitted.get(token);
            arrivals.add(new Arrival(token, emission.node(), emission.iteration(), emission.from(), emission.parent(),
                    field, dependency, trail.arrived.get(token).expected()));
        }));
        return arrivals;
    }

    /**
     * Whether the event just before {@code run.failed} failed the run in the same step: a node's failure that nothing
     * caught (such a failure always fails the run at once) or a discarded dead-letter entry.
     */
    private static boolean failingEvent(RunEvent event) {
        return event instanceof NodeDiscarded
                || event instanceof NodeFailed failure && !failure.data().has("next_nodes");
    }

    static Redo redo(String runId, TokenEmitted emission) {
        Source source = emission.from() != null || emission.parent() != null ? Source.CHILD
                : emission.token().equals(TokenIds.join(runId, emission.node(), emission.iteration())) ? Source.JOIN
                : Source.ENTRY;
        return new Redo(emission.token(), emission.node(), emission.iteration(), emission.from(), emission.parent(),
                source);
    }
}
