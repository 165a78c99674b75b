package io.tokenflow.live;

import java.util.Collection;
import java.util.Set;
import java.util.UUID;

/**
 * What one kind of live topic shows, owned by the feature whose page it is. {@link LiveUpdates} calls {@link #accept}
 * for every events-stream entry, then per push {@link #beforePush} once and {@link #render} for each subscriber, at most
 * once per coalescing interval per topic; {@link #missed} now and then, for what the tailers did not see.
 */
public interface LiveView {

    /** Whether this view renders the topic (e.g. {@code runs}, {@code run:<id>}). */
    boolean serves(String topic);

    /**
     * The topics an entry changes (whether anyone subscribes or not). Called on a tailer thread for every entry of
     * every run: cheap, no I/O.
     */
    Collection<String> accept(LiveEntry entry);

    /**
     * Checks a new subscription before anything is pushed to it (that the run exists, that the filters are valid).
     *
     * @throws IllegalArgumentException with a message to show the person, when it cannot be served
     */
    void check(LiveSubscriber subscriber);

    /**
     * Called once per push of a topic, before {@link #render} for each subscriber, when events changed it: work every
     * subscriber's render needs (e.g. waiting for PostgreSQL to hold what it reads) is done here once.
     *
     * @param runs the runs whose events touched the topic since its last push
     * @return the runs whose changes this push cannot show yet (e.g. PostgreSQL still lags): the topic is pushed again
     *         for them after the coalescing interval, until it can
     */
    default Set<UUID> beforePush(Set<UUID> runs) {
        return Set.of();
    }

    /**
     * Called every {@code tokenflow.live.resync} for each subscribed topic, off the tailer threads: whether the topic
     * changed in ways the tailers did not see (the supervisor persisted and deleted the entries while this instance
     * was not reading the stream, or was behind), found by asking PostgreSQL or Redis. The topic is pushed when so.
     */
    default boolean missed(String topic) {
        return false;
    }

    /**
     * The {@code hx-swap-oob} fragments to push to one subscriber, rendered by the page's own templates; empty when
     * nothing it shows changed.
     */
    String render(LiveSubscriber subscriber, LiveChange change);
}
