package io.tokenflow.engine.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * Folds a run's events in {@code seq} order into its {@link RunState}. The events must start at seq 1 and follow
 * each other without gaps; a repeated seq carrying the same event is ignored (events may be delivered twice), a
 * repeated seq carrying a different event is an error.
 */
public final class RunReplay {

    private RunReplay() {
    }

    public static RunState replay(List<? extends RunEvent> events) {
        return replay(events, Long.MAX_VALUE);
    }

    /** The state after event {@code upToSeq} (later events are not applied). */
    public static RunState replay(List<? extends RunEvent> events, long upToSeq) {
        RunFold fold = new RunFold();
        List<RunEvent> applied = new ArrayList<>();
        for (RunEvent event : events) {
            if (event.seq() > upToSeq) {
                break;
            }
            if (event.seq() <= applied.size()) {
                requireSame(applied.get((int) event.seq() - 1), event);
                continue;
            }
            if (event.seq() != applied.size() + 1) {
                throw new IllegalArgumentException("Expected seq " + (applied.size() + 1) + " after seq "
                        + applied.size() + ", but found seq " + event.seq() + " (" + event.type().wireName()
                        + "): events must come in seq order without gaps");
            }
            fold.apply(event);
            applied.add(event);
        }
        return fold.freeze();
    }

    private static void requireSame(RunEvent applied, RunEvent repeated) {
        if (!applied.equals(repeated)) {
            throw new IllegalArgumentException("Expected a repeated seq " + repeated.seq() + " to carry the same event, "
                    + "but found " + repeated.type().wireName() + " where " + applied.type().wireName()
                    + " was applied with different contents");
        }
    }
}
