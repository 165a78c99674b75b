package io.tokenflow.workers.runtime;

import java.util.Optional;

import io.lettuce.core.Consumer;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

/**
 * A thread holding tokens between reading and finishing them: what the {@link LeaseRenewer} keeps from being taken
 * over and the {@link StartAnnouncer} reports the start of.
 */
interface TokenHolder {

    String name();

    /** The tokens it holds. */
    HeldTokens held();

    /** The consumer-group member its tokens are pending for. */
    Consumer<String> consumer();

    /** The token worked on, once that has taken longer than {@code nanos} (each token once). */
    default Optional<HeldTokens.Working> workingLongerThan(long nanos) {
        return held().workingLongerThan(nanos);
    }

    /** Resets the idle time of tokens held longer than {@code nanos}; called by another thread. */
    default void renewHeld(RedisClusterCommands<String, String> redis, long nanos) {
        held().renew(redis, consumer(), nanos);
    }
}
