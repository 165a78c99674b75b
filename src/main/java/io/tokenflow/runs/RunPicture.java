package io.tokenflow.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A run as its page shows it after event {@code seq} (the latest, or an earlier one when travelling in time): what
 * the graph colours, the counter, pending approvals, the timeline's tail, the hops tokens made since the page's
 * previous picture and the graph of the revision the run follows then.
 *
 * @param lastSeq  the newest event known (the slider's end)
 * @param latestAt when event {@code seq} happened (epoch ms)
 */
record RunPicture(UUID id, UUID workflowId, String workflowName, int workflowVersion, String status, long counter,
                  long seq, long lastSeq, long latestAt, Instant startedAt, Instant endedAt, String error,
                  List<NodeView> nodes, List<ApprovalTrack.Approval> approvals, List<EventView> timeline,
                  List<HopView> hops, RunGraph graph) {

    RunPicture {
        nodes = List.copyOf(nodes);
        approvals = List.copyOf(approvals);
        timeline = List.copyOf(timeline);
        hops = List.copyOf(hops);
    }

    /** How many of the newest events the timeline shows at most. */
    public int timelineLines() {
        return RunPictures.TIMELINE;
    }

    /** Whether this is the run's newest state (not an earlier point in time). */
    public boolean atEnd() {
        return seq >= lastSeq;
    }

    public boolean finished() {
        return endedAt != null;
    }

    /**
     * How long the run ran, e.g. {@code 1m 04s}: until it ended, until now while it is active, and until event
     * {@code seq} when travelling back in time.
     */
    public String duration() {
        if (startedAt == null) {
            return "";
        }
        Instant end = endedAt != null ? endedAt : ticking() ? Instant.now()
                : latestAt > 0 ? Instant.ofEpochMilli(latestAt) : startedAt;
        return RunDurations.format(Duration.between(startedAt, end));
    }

    /** Whether the duration grows by the second as the page shows it (the run is active, shown at its newest). */
    public boolean ticking() {
        return startedAt != null && endedAt == null && atEnd();
    }

    /** The server's clock now (epoch ms), so that the page's ticking duration corrects the browser's clock. */
    public long clockMillis() {
        return System.currentTimeMillis();
    }

    public List<ApprovalTrack.Approval> pendingApprovals() {
        return approvals.stream().filter(ApprovalTrack.Approval::pending).toList();
    }

    /**
     * One node of the graph.
     *
     * @param status     the latest execution's status in lower case, or {@code not-reached}
     * @param executions how many times it ran (loop iterations)
     * @param join       arrivals at a waiting join, e.g. {@code 2/3}, else {@code null}
     * @param loop       a loop node's pass, e.g. {@code 3/5 again}, else {@code null}
     * @param branch     the last branch decision, e.g. {@code → approve (rule 'big')}, else {@code null}
     * @param error      why its latest execution failed, else {@code null}
     * @param approval   its newest approval, else {@code null}
     * @param attempt    while a failed attempt is being retried, the attempt now due or running, e.g. {@code 2/3}
     * @param retryAt    when that attempt is due (epoch ms), else {@code null}
     * @param parked     whether its task waits in the dead-letter queue
     * @param waiting    what the engine holds its token for (a timer, a signal), e.g. {@code waiting until
     *                   2026-11-27 14:05:00 UTC}, else {@code null}
     * @param waitingUntil when that wait ends (epoch ms), else {@code null}
     * @param map        while a map node's elements run, its progress, e.g. {@code 412/10,000 done, 3 failed}
     * @param added      whether a patch of the run added it
     */
    record NodeView(String id, String label, String kind, String type, String status, int iteration, int executions,
                    String join, String loop, String branch, String error, ApprovalTrack.Approval approval,
                    String attempt, Long retryAt, boolean parked, String waiting, Long waitingUntil, String map,
                    boolean added) {
    }

    /** One line of the timeline. */
    record EventView(long seq, String type, long at, String node, String summary) {

        public Instant time() {
            return Instant.ofEpochMilli(at);
        }
    }

    /** A token's hop from → to ({@code from} is {@code null} for entry and join tokens). */
    record HopView(long seq, String from, String to, boolean join) {
    }
}
