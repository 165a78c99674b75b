package io.tokenflow.runs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.ir.WorkflowIr;
import io.tokenflow.engine.replay.RunReplay;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.live.LiveEvent;
import io.tokenflow.live.RunLog;

/**
 * Draws a {@link RunPicture} from a run's events: the engine's {@link RunReplay} folds them up to the chosen seq
 * (status, counter, node executions, pending joins), and what the replay does not keep — loop passes, branch
 * decisions, approvals, the timeline — is read from the same events. The same code serves the live page and time
 * travel, so a picture at seq N is the same whenever it is drawn.
 */
final class RunPictures {

    static final int TIMELINE = 60;
    static final int HOPS = 200;

    private RunPictures() {
    }

    /**
     * @param events    the run's events from seq 1, without gaps
     * @param at        the seq to draw the run at (beyond the last event: the last)
     * @param hopsAfter hops with a seq after this one are drawn moving
     */
    static RunPicture draw(UUID run, String workflowName, WorkflowIr ir, RunLog log, long at, long hopsAfter) {
        return draw(run, workflowName, log, at, hopsAfter, seen -> new RunWorkflowRevisions.Revision(0, ir, null,
                java.util.Set.of()));
    }

    /** The picture with the revision of the workflow the run follows at {@code at}, found from the events seen. */
    static RunPicture draw(UUID run, String workflowName, RunLog log, long at, long hopsAfter,
                           java.util.function.Function<List<LiveEvent>, RunWorkflowRevisions.Revision> revisions) {
        List<LiveEvent> events = log.events();
        int upTo = upTo(log, at);
        List<LiveEvent> seen = events.subList(0, upTo);
        RunState state = RunReplay.replay(log.replayableUpTo(upTo));
        Extras extras = Extras.of(seen);
        RunWorkflowRevisions.Revision revision = revisions.apply(seen);
        List<RunPicture.NodeView> nodes = new ArrayList<>();
        for (IrNode node : revision.ir().nodes().values()) {
            nodes.add(node(node, state, extras, revision.added().contains(node.id())));
        }
        return new RunPicture(run, state.started() == null ? null : state.started().workflowId(), workflowName,
                state.started() == null ? 0 : state.started().workflowVersion(), state.status().name(),
                state.counter(),
                upTo, events.size(), upTo == 0 ? 0 : seen.get(upTo - 1).at(), state.startedAt(), state.endedAt(),
                state.error(), nodes, extras.approvals.all(), timeline(seen), hops(seen, hopsAfter),
                RunGraph.of(revision, seen));
    }

    /** How many events the picture at {@code at} covers. */
    static int upTo(RunLog log, long at) {
        return (int) Math.min(Math.max(at, 0), log.size());
    }

    /** A node's name, or its id when it has none. */
    static String label(IrNode node) {
        return node.name() == null || node.name().isBlank() ? node.id() : node.name();
    }

    private static RunPicture.NodeView node(IrNode node, RunState state, Extras extras, boolean added) {
        NodeExecution latest = null;
        int executions = 0;
        for (NodeExecution execution : state.executions().values()) {
            if (execution.key().node().equals(node.id())) {
                executions++;
                if (latest == null || execution.key().iteration() >= latest.key().iteration()) {
                    latest = execution;
                }
            }
        }
        LiveEvent completion = extras.lastCompletion.get(node.id());
        var route = completion == null ? null : completion.data().get("route");
        LiveEvent retry = extras.pendingRetry.get(node.id());
        LiveEvent waiting = extras.waiting.get(node.id());
        int[] map = extras.maps.get(node.id());
        return new RunPicture.NodeView(node.id(), label(node),
                node.nodeType() == null ? node.type() : node.nodeType(), node.type(),
                latest == null ? "not-reached" : latest.status().name().toLowerCase(java.util.Locale.ROOT),
                latest == null ? 0 : latest.key().iteration(), executions, join(node, state),
                EventSummaries.loop(route), EventSummaries.branch(route),
                latest == null || latest.error() == null ? null : EventSummaries.errorMessage(latest.error()),
                extras.approvals.latestAt(node.id()),
                retry == null ? null : retry.data().path("next_attempt").asInt() + "/"
                        + retry.data().path("max_attempts").asInt(),
                retry == null ? null : retry.data().path("due_at").asLong(), extras.parked.contains(node.id()),
                waiting == null ? null : EventSummaries.waiting(waiting.data()),
                waiting == null || !waiting.data().path("until").isNumber() ? null
                        : waiting.data().path("until").asLong(),
                map == null ? null : EventSummaries.mapProgress(map[1], map[0], map[2]), added);
    }

    private static String join(IrNode node, RunState state) {
        String prefix = node.id() + "#";
        for (Map.Entry<String, Map<String, String>> pending : state.pendingJoins().entrySet()) {
            if (pending.getKey().startsWith(prefix)) {
                int expected = node.join() == null ? node.dependencies().size() : node.join().expected().size();
                return pending.getValue().size() + "/" + expected;
            }
        }
        return null;
    }

    private static List<RunPicture.EventView> timeline(List<LiveEvent> seen) {
        List<RunPicture.EventView> lines = new ArrayList<>();
        for (int i = seen.size() - 1; i >= 0 && lines.size() < TIMELINE; i--) {
            LiveEvent event = seen.get(i);
            lines.add(new RunPicture.EventView(event.seq(), event.type(), event.at(), event.node(),
                    EventSummaries.of(event)));
        }
        return lines;
    }

    private static List<RunPicture.HopView> hops(List<LiveEvent> seen, long after) {
        List<RunPicture.HopView> hops = new ArrayList<>();
        for (int i = seen.size() - 1; i >= 0 && seen.get(i).seq() > after && hops.size() < HOPS; i--) {
            LiveEvent event = seen.get(i);
            if ("token.emitted".equals(event.type())) {
                hops.add(0, new RunPicture.HopView(event.seq(), event.dataText("from"), event.node(),
                        event.data().path("join").asBoolean(false)));
            }
        }
        return hops;
    }

    /**
     * What the replay does not keep, read from the same events.
     *
     * @param pendingRetry by node, its last {@code node.retrying} until the node completes or fails
     * @param parked       the nodes with a task in the dead-letter queue
     * @param waiting      by node, its last {@code node.waiting} until the node completes or fails or the run ends
     * @param maps         by map node, while its elements run: elements, done, failed
     */
    private record Extras(Map<String, LiveEvent> lastCompletion, ApprovalTrack approvals,
                          Map<String, LiveEvent> pendingRetry, Set<String> parked, Map<String, LiveEvent> waiting,
                          Map<String, int[]> maps) {

        /** A map's progress: its elements from {@code map.started}, then each element's outcome. */
        void countMap(LiveEvent event) {
            if (event.node() == null) {
                return;
            }
            switch (event.type()) {
                case "map.started" -> maps.put(event.node(), new int[] {event.data().path("items").asInt(), 0, 0});
                case "map.item.completed" -> maps.computeIfPresent(event.node(), (node, counts) -> {
                    counts[1]++;
                    return counts;
                });
                case "map.item.failed" -> maps.computeIfPresent(event.node(), (node, counts) -> {
                    counts[2]++;
                    return counts;
                });
                default -> { }
            }
        }

        private static final Set<String> UNPARKING = Set.of("node.reprocessed", "node.discarded", "node.unparked",
                "node.completed", "run.failed", "run.cancelled");

        static Extras of(List<LiveEvent> events) {
            Extras extras = new Extras(new HashMap<>(), new ApprovalTrack(), new HashMap<>(), new HashSet<>(),
                    new HashMap<>(), new HashMap<>());
            for (LiveEvent event : events) {
                if (event.node() != null && ("node.completed".equals(event.type())
                        || "node.failed".equals(event.type()))) {
                    extras.pendingRetry.remove(event.node());
                    extras.waiting.remove(event.node());
                    extras.maps.remove(event.node());
                }
                extras.countMap(event);
                if ("node.waiting".equals(event.type()) && event.node() != null) {
                    extras.waiting.put(event.node(), event);
                } else if ("run.failed".equals(event.type()) || "run.cancelled".equals(event.type())) {
                    extras.waiting.clear();
                }
                if ("node.parked".equals(event.type())) {
                    extras.parked.add(event.node());
                } else if (UNPARKING.contains(event.type())) {
                    if (event.node() == null || event.type().startsWith("run.")) {
                        extras.parked.clear();
                    } else {
                        extras.parked.remove(event.node());
                    }
                }
                if ("node.retrying".equals(event.type()) && event.node() != null) {
                    extras.pendingRetry.put(event.node(), event);
                } else if ("node.completed".equals(event.type()) && event.node() != null) {
                    extras.lastCompletion.put(event.node(), event);
                } else if (event.type().startsWith("approval.")) {
                    extras.approvals.apply(event);
                }
            }
            return extras;
        }
    }
}
