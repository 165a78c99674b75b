package io.tokenflow.engine.runs;

import static io.tokenflow.engine.runs.RunStatus.CANCELLED;
import static io.tokenflow.engine.runs.RunStatus.COMPLETED;
import static io.tokenflow.engine.runs.RunStatus.FAILED;
import static io.tokenflow.engine.runs.RunStatus.PENDING;
import static io.tokenflow.engine.runs.RunStatus.RUNNING;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The legal moves of a run: {@code Pending → Running → Completed | Failed | Cancelled}; a run that never started may
 * still fail or be cancelled, and a failed run may be resumed ({@code run.resumed}: {@code Failed → Running}).
 */
public final class RunStatusTransitions {

    private static final Map<RunStatus, Set<RunStatus>> MOVES = new EnumMap<>(RunStatus.class);

    static {
        MOVES.put(PENDING, EnumSet.of(RUNNING, FAILED, CANCELLED));
        MOVES.put(RUNNING, EnumSet.of(COMPLETED, FAILED, CANCELLED));
        MOVES.put(COMPLETED, EnumSet.noneOf(RunStatus.class));
        MOVES.put(FAILED, EnumSet.of(RUNNING));
        MOVES.put(CANCELLED, EnumSet.noneOf(RunStatus.class));
    }

    private RunStatusTransitions() {
    }

    public static boolean allows(RunStatus from, RunStatus to) {
        return MOVES.get(from).contains(to);
    }

    /** The statuses a run may move to from {@code from}. */
    public static Set<RunStatus> targetsOf(RunStatus from) {
        Set<RunStatus> targets = EnumSet.noneOf(RunStatus.class);
        targets.addAll(MOVES.get(from));
        return targets;
    }

    /** The statuses from which a run may move to {@code to}. */
    public static Set<RunStatus> sourcesOf(RunStatus to) {
        Set<RunStatus> sources = EnumSet.noneOf(RunStatus.class);
        MOVES.forEach((from, targets) -> {
            if (targets.contains(to)) {
                sources.add(from);
            }
        });
        return sources;
    }
}
