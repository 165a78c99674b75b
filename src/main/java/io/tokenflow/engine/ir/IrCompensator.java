package io.tokenflow.engine.ir;

import java.util.Objects;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * The task that undoes a node's completed work (a saga's compensating step): run by the workers of {@code worker}
 * with {@code config}, its input the node's output. It runs as node {@code <node>~compensate}, an id no authored node
 * can have.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IrCompensator(String type, String worker, JsonNode config) {

    /** What compensating node ids end with. */
    public static final String SUFFIX = "~compensate";

    public IrCompensator {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(config, "config");
    }

    /** The id the compensator of {@code node} runs as. */
    public static String nodeOf(String node) {
        return node + SUFFIX;
    }

    /** The node a compensating node id compensates, or {@code null} when the id is no compensator's. */
    public static String compensated(String nodeId) {
        return nodeId.endsWith(SUFFIX) ? nodeId.substring(0, nodeId.length() - SUFFIX.length()) : null;
    }
}
