package io.tokenflow.engine.replay;

/**
 * A step of a map's elements ({@link MapStarted}): an element's outcome, or all of them done. They move no node
 * execution (the map node runs until its own completion) and count no token: the replay passes over them, and the
 * run page counts them for a map's progress.
 */
public sealed interface MapEvent extends RunEvent permits MapItemCompleted, MapItemFailed, MapItemsDone {

    int iteration();

    @Override
    default void applyTo(RunFold fold) {
        // an element's step changes nothing a replay keeps
    }
}
