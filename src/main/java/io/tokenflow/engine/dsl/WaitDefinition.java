package io.tokenflow.engine.dsl;

import java.time.Duration;
import java.util.Objects;

/**
 * A wait node's timer: it holds its token for {@code duration} after the token arrived, or until {@code until}.
 *
 * @param duration {@code null} when the wait is until an instant
 * @param until    an ISO-8601 instant, or one {@code ${…}} reference giving one; {@code null} with a duration
 */
public record WaitDefinition(String pointer, Duration duration, String until) {

    public WaitDefinition {
        Objects.requireNonNull(pointer, "pointer");
    }
}
