package io.tokenflow.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.ir.IrNode;
import io.tokenflow.engine.replay.RunState;
import io.tokenflow.engine.routing.InputResolver;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.live.LiveEvent;
import tools.jackson.databind.JsonNode;

/**
 * What one node received and produced in each of its executions. The input is derived from the log the way the
 * coordinator built it: the node's input mapping over the run's input and the outputs known, else (a join) the
 * dependencies' outputs by id, else (an entry node) the run's input, else the output of the node that emitted the
 * token.
 */
final class NodeDetails {

    private NodeDetails() {
    }

    static NodeDetail of(IrNode node, RunState state, List<LiveEvent> seen) {
        Map<String, String> emitters = new HashMap<>();
        for (LiveEvent event : seen) {
            if ("token.emitted".equals(event.type()) && event.token() != null) {
                emitters.put(event.token(), event.dataText("from"));
            }
        }
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        state.executions().values().stream().filter(execution -> execution.status() == NodeStatus.COMPLETED)
                .forEach(execution -> outputs.put(execution.key().node(), execution.output()));
        List<Execution> executions = new ArrayList<>();
        for (NodeExecution execution : state.executions().values()) {
            if (execution.key().node().equals(node.id())) {
                executions.add(new Execution(execution.key().iteration(),
                        execution.status().name().toLowerCase(java.util.Locale.ROOT), execution.worker(),
                        input(node, state.inputs(), outputs, emitters.get(execution.token()), execution.token()),
                        execution.output(), execution.error(), execution.readyAt(), execution.startedAt(),
                        execution.endedAt()));
            }
        }
        return new NodeDetail(node.id(), node.name() == null ? node.id() : node.name(),
                node.nodeType() == null ? node.type() : node.nodeType(), state.lastSeq(), executions);
    }

    private static JsonNode input(IrNode node, JsonNode runInput, Map<String, JsonNode> outputs, String from,
                                  String token) {
        if (token == null) {
            return null;
        }
        if (node.inputMapping() != null) {
            return InputResolver.resolve(node.inputMapping(), runInput, outputs::get);
        }
        if (node.waitForAll() || node.join() != null) {
            Map<String, JsonNode> merged = new LinkedHashMap<>();
            node.dependencies().forEach(dependency -> merged.put(dependency, outputs.get(dependency)));
            return InputResolver.merge(merged);
        }
        return from == null ? runInput : outputs.get(from);
    }

    /** One node's executions at the page's point in time. */
    record NodeDetail(String id, String label, String kind, long seq, List<Execution> executions) {

        NodeDetail {
            executions = List.copyOf(executions);
        }
    }

    /** One execution; {@code input} is {@code null} when no token reached it yet. */
    record Execution(int iteration, String status, String worker, JsonNode input, JsonNode output, JsonNode error,
                     Instant readyAt, Instant startedAt, Instant endedAt) {
    }
}
