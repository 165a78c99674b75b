package io.tokenflow.engine.ir;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A signal node's wait: the engine holds the node's token until a signal named {@code name} with the correlation
 * key {@code key} arrives, then completes the node with its input plus the signal. Past {@code timeoutMs} the node
 * fails (code {@code signal_timeout}); its {@link IrNode#onFailure()} path, when it has one, is the timeout path.
 *
 * @param key       a text, or one {@code ${…}} reference resolved when the token arrives
 * @param timeoutMs how long to wait at most after the token was emitted, or {@code null} for no limit
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrSignal(String name, String key, Long timeoutMs) {

    public IrSignal {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(key, "key");
    }
}
