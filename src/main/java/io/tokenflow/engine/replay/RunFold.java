package io.tokenflow.engine.replay;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.tokenflow.engine.runs.IllegalMove;
import io.tokenflow.engine.runs.NodeExecution;
import io.tokenflow.engine.runs.NodeExecutionKey;
import io.tokenflow.engine.runs.NodeStatus;
import io.tokenflow.engine.runs.RunStatus;
import io.tokenflow.engine.runs.RunStatusTransitions;

/**
 * A replay in progress: the mutable state events apply themselves to, one at a time, until it is frozen into a
 * {@link RunState}. Only {@link RunReplay} creates one.
 */
public final class RunFold {

    private RunStatus status = RunStatus.PENDING;
    private long counter;
    private final Map<String, String> inFlight = new LinkedHashMap<>();
    private final Map<NodeExecutionKey, NodeExecution> executions = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> pendingJoins = new LinkedHashMap<>();
    private final Map<String, String> pendingApprovals = new LinkedHashMap<>();
    private final List<PathStep> path = new ArrayList<>();
    private final List<IllegalMove> illegalMoves = new ArrayList<>();
    private RunStarted started;
    private Instant endedAt;
    private String error;
    private String compensation;
    private long lastSeq;
    private int revision;

    RunFold() {
    }

    void apply(RunEvent event) {
        event.applyTo(this);
        lastSeq = event.seq();
    }

    void start(RunStarted event) {
        started = event;
        moveRun(RunStatus.RUNNING, event);
    }

    void emit(TokenEmitted event) {
        counter++;
        inFlight.put(event.token(), event.node());
        path.add(new PathStep(event.from(), event.node(), event.token(), event.seq()));
    }

    void arrive(JoinArrived event) {
        String join = new NodeExecutionKey(event.node(), event.iteration()).toString();
        pendingJoins.computeIfAbsent(join, key -> new LinkedHashMap<>())
                .put(event.from() == null ? event.token() : event.from(), event.token());
    }

    void completeJoin(JoinCompleted event) {
        event.arrivals().forEach(this::consume);
        pendingJoins.remove(new NodeExecutionKey(event.node(), event.iteration()).toString());
    }

    /** The failed run runs again; what it re-emits follows as ordinary events. */
    void resume(RunResumed event) {
        if (moveRun(RunStatus.RUNNING, event)) {
            endedAt = null;
            error = null;
        }
    }

    /** How the run's compensation stands: running, completed or failed. */
    void compensation(String state) {
        compensation = state;
    }

    void patch(RunPatched event) {
        revision = event.revision();
    }

    void awaitApproval(ApprovalRequested event) {
        pendingApprovals.put(event.approvalId(), event.node());
    }

    void decideApproval(ApprovalDecided event) {
        pendingApprovals.remove(event.approvalId());
    }

    void consume(String token) {
        counter--;
        inFlight.remove(token);
    }

    void execute(NodeExecutionEvent event) {
        NodeExecution current = executions.getOrDefault(event.key(), NodeExecution.created(event.key()));
        executions.put(event.key(), event.advance(current, illegalMoves::add));
    }

    void end(RunEnding event) {
        if (!moveRun(event.endsAs(), event)) {
            return;
        }
        endedAt = event.at();
        error = event.error();
        if (event.endsAs() != RunStatus.COMPLETED) {
            counter = 0;
            inFlight.clear();
            pendingJoins.clear();
            pendingApprovals.clear();
            executions.replaceAll((key, execution) -> execution.status().isFinished() ? execution
                    : execution.move(NodeStatus.CANCELLED, event.seq(), cancelled -> cancelled.withEndedAt(event.at()),
                            illegalMoves::add));
        }
    }

    private boolean moveRun(RunStatus to, RunEvent event) {
        if (!RunStatusTransitions.allows(status, to)) {
            illegalMoves.add(new IllegalMove("run", status.name(), to.name(), event.seq()));
            return false;
        }
        status = to;
        return true;
    }

    RunState freeze() {
        return new RunState(status, counter, revision, inFlight, executions, pendingJoins, pendingApprovals, path,
                lastSeq, started == null ? null : started.at(), endedAt, started, error, compensation, illegalMoves);
    }
}
