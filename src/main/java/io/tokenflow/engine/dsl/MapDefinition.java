package io.tokenflow.engine.dsl;

import java.util.Objects;

/**
 * A map: the node runs once per element of the list {@code items} gives.
 *
 * @param items       one {@code ${…}} reference giving the list
 * @param concurrency how many elements may run at once, or {@code null} for the default
 * @param maxItems    how many elements the list may have, or {@code null} for the default
 */
public record MapDefinition(String pointer, String items, Integer concurrency, Integer maxItems) {

    public MapDefinition {
        Objects.requireNonNull(pointer, "pointer");
    }
}
