package io.tokenflow.engine.dsl;

import java.util.Objects;

/**
 * A workflow node's call of another workflow: which one ({@code name} or {@code id}) at which pinned {@code version}
 * or {@code tag}. The child's inputs are the node's input (its {@code input} mapping, or what reaches it).
 */
public record CallDefinition(String pointer, String name, String id, Integer version, String tag) {

    public CallDefinition {
        Objects.requireNonNull(pointer, "pointer");
    }

    /** The called workflow as the API takes it: its id, or its name. */
    public String workflow() {
        return id != null ? id : name;
    }
}
