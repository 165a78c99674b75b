package io.tokenflow.runs;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

/** What the runs API answers. */
public final class RunViews {

    private RunViews() {
    }

    /** A run in a list. */
    public record Summary(UUID id, UUID workflowId, String workflowName, int workflowVersion, String status,
                          Instant createdAt, Instant endedAt, Long durationMs) {
    }

    /**
     * A run with each node's status and output.
     *
     * @param counter  tokens in flight: live from Redis while the run runs, else its final value
     * @param live     whether the state is still changing
     * @param parent   the run and workflow node that started this run, or {@code null} when nobody called it
     * @param children the runs this run's workflow nodes started, oldest first
     */
    public record Detail(UUID id, UUID workflowId, String workflowName, Integer workflowVersion, String status,
                         Long counter, boolean live, Instant createdAt, Instant endedAt, String error, JsonNode inputs,
                         JsonNode outputs, List<Node> nodes, Call parent, List<Call> children) {
        public Detail {
            nodes = List.copyOf(nodes);
            children = List.copyOf(children);
        }

        Detail withCalls(Call newParent, List<Call> newChildren) {
            return new Detail(id, workflowId, workflowName, workflowVersion, status, counter, live, createdAt, endedAt,
                    error, inputs, outputs, nodes, newParent, newChildren);
        }
    }

    /**
     * A call between runs: the other run, the workflow node of the calling run, and the other run's workflow and
     * status ({@code null} while its row is not written yet).
     */
    public record Call(UUID runId, String node, String workflowName, Integer workflowVersion, String status) {
    }

    /** A run's calls: the run that called it, or {@code null}, and the runs it called. */
    public record Calls(Call parent, List<Call> children) {

        public Calls {
            children = List.copyOf(children);
        }

        public boolean none() {
            return parent == null && children.isEmpty();
        }
    }

    /** One node execution (seed 002's status vocabulary). */
    public record Node(String node, int iteration, String status, String token, String worker, JsonNode output,
                       JsonNode error, Instant readyAt, Instant startedAt, Instant endedAt) {
    }

    /** One event of the run's log. */
    public record Event(long seq, String type, String node, String token, Instant at, JsonNode data) {
    }

    /** A page of events after {@code afterSeq}; {@code nextAfterSeq} continues, null at the end. */
    public record EventPage(List<Event> events, Long nextAfterSeq) {
        public EventPage {
            events = List.copyOf(events);
        }
    }

    /** A run's state rebuilt from its event log alone, up to {@code upToSeq}. */
    public record Replay(UUID id, long upToSeq, String status, long counter, Map<String, String> inFlight,
                         List<Node> nodes, Map<String, Map<String, String>> pendingJoins,
                         Map<String, String> pendingApprovals, List<Step> path,
                         Map<String, JsonNode> outputs, String error, String compensation) {
    }

    /** A token's journey: from → to. */
    public record Step(long seq, String from, String to, String token) {
    }
}
