package io.tokenflow.engine.dsl;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A signal node's wait: for a message named {@code name} whose correlation key equals {@code key}.
 *
 * @param key         a text, or one {@code ${…}} reference giving it
 * @param timeout     how long to wait at most, or {@code null} for no limit
 * @param timeoutPath where the run goes on when the timeout passes; empty: the node fails
 */
public record SignalDefinition(String pointer, String name, String key, Duration timeout, List<Target> timeoutPath) {

    public SignalDefinition {
        Objects.requireNonNull(pointer, "pointer");
        timeoutPath = List.copyOf(timeoutPath);
    }
}
