package io.tokenflow.engine.dsl;

import java.util.Objects;

/** A node id named somewhere in the document (an edge end, a branch or loop path), with where it is named. */
public record Target(String nodeId, String pointer) {

    public Target {
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(pointer, "pointer");
    }
}
