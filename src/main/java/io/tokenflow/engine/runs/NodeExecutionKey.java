package io.tokenflow.engine.runs;

import java.util.Objects;

/** Identifies one execution of a node within a run: the node and its loop iteration ({@code 0} outside loops). */
public record NodeExecutionKey(String node, int iteration) implements Comparable<NodeExecutionKey> {

    public NodeExecutionKey {
        Objects.requireNonNull(node, "node");
        if (iteration < 0) {
            throw new IllegalArgumentException("Expected an iteration >= 0, but found " + iteration + " for " + node);
        }
    }

    @Override
    public int compareTo(NodeExecutionKey other) {
        int byNode = node.compareTo(other.node);
        return byNode != 0 ? byNode : Integer.compare(iteration, other.iteration);
    }

    /** {@code node#iteration}, the form Redis uses for join state. */
    @Override
    public String toString() {
        return node + "#" + iteration;
    }
}
