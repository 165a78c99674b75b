package io.tokenflow.engine.types;

import java.util.Objects;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A node type: how it is shown, what its config looks like and which workers run it.
 *
 * @param worker        the worker type whose stream receives this node's tokens, or {@code null} when the engine
 *                      handles it itself (human) or compiles it away (parallel)
 * @param defaultConfig config merged under the authored config (e.g. seed-001 {@code conditional} runs {@code echo})
 * @param builtIn       whether the type ships with Tokenflow (as opposed to being registered)
 */
public record NodeTypeSpec(String name, String displayName, String description, String category, NodeKind kind,
                           String worker, JsonNode configSchema, ObjectNode defaultConfig, boolean builtIn) {

    public NodeTypeSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(configSchema, "configSchema");
    }
}
