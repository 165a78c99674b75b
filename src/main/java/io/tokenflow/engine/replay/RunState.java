package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeExecutionKey;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;

import tools.jackson.databind.JsonNode;

/**
 * A run's state after its events up to {@link #lastSeq()}: immutable.
 *
 * @param revision     the run's workflow revision (0: the pinned version; each patch adds one)
 * @param inFlight     token id → the node it is travelling to (or parked at)
 * @param executions   every node execution, by {@code (node, iteration)}, in the order they appeared
 * @param pendingJoins {@code node#iteration} → dependency → the token that arrived from it
 * @param pendingApprovals approval id → the human node waiting for it
 * @param path         every {@code token.emitted}, in order
 * @param started      the {@code run.started} event (workflow, version, inputs, …), or {@code null} before it
 * @param error        why the run failed, or who cancelled it
 * @param compensation how its compensation stands ({@code running}, {@code completed}, {@code failed}), or
 *                     {@code null} when none was started
 * @param illegalMoves status moves events asked for that the transition tables forbid (not applied)
 */
public record RunState(RunStatus status, long counter, int revision, Map<String, String> inFlight,
                       Map<NodeExecutionKey, NodeExecution> executions, Map<String, Map<String, String>> pendingJoins,
                       Map<String, String> pendingApprovals, List<PathStep> path, long lastSeq, Instant startedAt,
                       Instant endedAt, RunStarted started, String error, String compensation,
                       List<IllegalMove> illegalMoves) {

    public RunState {
        inFlight = frozen(inFlight);
        executions = frozen(executions);
        Map<String, Map<String, String>> joins = new LinkedHashMap<>();
        pendingJoins.forEach((join, arrivals) -> joins.put(join, frozen(arrivals)));
        pendingJoins = Collections.unmodifiableMap(joins);
        pendingApprovals = frozen(pendingApprovals);
        path = List.copyOf(path);
        illegalMoves = List.copyOf(illegalMoves);
    }

    /** The run's inputs, or {@code null} before {@code run.started}. */
    public JsonNode inputs() {
        return started == null ? null : started.inputs();
    }

    public NodeExecution execution(String node, int iteration) {
        return executions.get(new NodeExecutionKey(node, iteration));
    }

    /**
     * The outputs of the run's terminal nodes, by node id: nodes that completed and emitted no token in this run
     * (in a loop, the last iteration's output).
     */
    public Map<String, JsonNode> outputs() {
        Set<String> emitting = path.stream().map(PathStep::from).filter(from -> from != null)
                .collect(Collectors.toSet());
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        executions.values().stream()
                .filter(execution -> execution.status() == NodeStatus.COMPLETED)
                .filter(execution -> !emitting.contains(execution.key().node()))
                .sorted((a, b) -> a.key().compareTo(b.key()))
                .forEach(execution -> outputs.put(execution.key().node(), execution.output()));
        return Collections.unmodifiableMap(outputs);
    }

    private static <K, V> Map<K, V> frozen(Map<K, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
