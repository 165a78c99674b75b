package io.tokenflow.nodetypes;

import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * A node type as the API lists it.
 *
 * @param worker        the worker type whose stream runs it; {@code null} when the engine handles it itself
 * @param streams       one stream per Redis shard that its workers read ({@code streams[0]} is shard 0)
 * @param consumerGroup the consumer group its workers join
 * @param workerAcl     Redis ACL rules that let its external workers do their work and nothing more (see
 *                      docs/worker-protocol.md §7); {@code null} when the engine handles it itself
 */
public record NodeTypeView(String name, String displayName, String description, String category, String kind,
                           boolean builtIn, JsonNode configSchema, String worker, String stream, List<String> streams,
                           String consumerGroup, String workerAcl) {

    public NodeTypeView {
        streams = List.copyOf(streams);
    }
}
