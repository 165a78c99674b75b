package io.tokenflow.engine.dsl;

import java.util.List;
import java.util.Objects;

/**
 * What a node's failure does once no retry is left ({@code on_failure}), as authored.
 *
 * @param action    {@code fail_run}, {@code path} or {@code dlq}
 * @param nextNodes where {@code path} sends the error
 */
public record OnFailureDefinition(String pointer, String action, List<Target> nextNodes) {

    public OnFailureDefinition {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(action, "action");
        nextNodes = List.copyOf(nextNodes);
    }
}
