package io.tokenflow.supervisor;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.tokenflow.engine.replay.NodeExecutionEvent;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.supervisor.NodeExecutionRows.RunNode;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Folds a batch's node events onto the stored node executions, exactly as a replay would: each execution starts from
 * its stored status (or is created {@code PENDING}) and every move goes through the node status table; a move the
 * table forbids is logged and not applied.
 */
final class NodeExecutionProjection {

    private static final Log log = LogFactory.getLog(NodeExecutionProjection.class);

    private NodeExecutionProjection() {
    }

    /**
     * The executions the events touch that may be stored already: not those of a run whose log starts with these events
     * (its first is seq 1), as executions are written from logged events only.
     */
    static Set<RunNode> possiblyStored(Map<UUID, List<RunEvent>> applied) {
        Set<RunNode> possiblyStored = new LinkedHashSet<>();
        applied.forEach((run, events) -> {
            if (events.get(0).seq() != 1) {
                nodeEvents(events).forEach(event -> possiblyStored.add(new RunNode(run, event.key())));
            }
        });
        return possiblyStored;
    }

    /**
     * Each touched execution after the events, starting from the stored statuses; {@code reopened} receives those an
     * event moved out of a finished status (a resumed run dispatching them again).
     */
    static Map<RunNode, NodeExecution> fold(Map<UUID, List<RunEvent>> applied, Map<RunNode, NodeStatus> stored,
                                            Set<RunNode> reopened) {
        Map<RunNode, NodeExecution> executions = new LinkedHashMap<>();
        applied.forEach((run, events) -> nodeEvents(events).forEach(event -> {
            RunNode key = new RunNode(run, event.key());
            NodeExecution current = executions.computeIfAbsent(key, k -> stored.containsKey(k)
                    ? NodeExecution.existing(k.key(), stored.get(k)) : NodeExecution.created(k.key()));
            NodeExecution next = event.advance(current, move -> log.warn("Run " + run + ": " + move.describe()));
            if (current.status().isFinished() && !next.status().isFinished()) {
                reopened.add(key);
            }
            executions.put(key, next);
        }));
        return executions;
    }

    private static List<NodeExecutionEvent> nodeEvents(List<RunEvent> events) {
        return events.stream().filter(NodeExecutionEvent.class::isInstance).map(NodeExecutionEvent.class::cast)
                .toList();
    }
}
