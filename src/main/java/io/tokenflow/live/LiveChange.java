package io.tokenflow.live;

import java.util.Set;
import java.util.UUID;

/**
 * What a push covers.
 *
 * @param full true on a (re)subscription: everything the topic shows, not only what changed
 * @param runs the runs whose events touched the topic since its last push
 */
public record LiveChange(boolean full, Set<UUID> runs) {

    public LiveChange {
        runs = Set.copyOf(runs);
    }
}
