package io.tokenflow.engine.types;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The node types that ship with Tokenflow: seed 001's input types ({@code function}, {@code http},
 * {@code conditional}, {@code loop}, {@code parallel}, {@code transform}, {@code aggregate}, {@code filter}) plus
 * the engine types ({@code task}, {@code agent}, {@code human}) and {@code http_agent}.
 */
public final class BuiltInNodeTypes implements NodeTypeCatalog {

    private static final String RESOURCE = "/io/tokenflow/engine/types/builtin-node-types.json";
    private static final BuiltInNodeTypes INSTANCE = new BuiltInNodeTypes(load());

    private final Map<String, NodeTypeSpec> types;

    private BuiltInNodeTypes(Map<String, NodeTypeSpec> types) {
        this.types = types;
    }

    public static BuiltInNodeTypes get() {
        return INSTANCE;
    }

    @Override
    public Optional<NodeTypeSpec> find(String name) {
        return Optional.ofNullable(types.get(name));
    }

    @Override
    public List<NodeTypeSpec> all() {
        return List.copyOf(types.values());
    }

    private static Map<String, NodeTypeSpec> load() {
        try (InputStream in = BuiltInNodeTypes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Expected the built-in node types on the classpath at " + RESOURCE);
            }
            Map<String, NodeTypeSpec> types = new LinkedHashMap<>();
            for (JsonNode type : JsonMapper.builder().build().readTree(in)) {
                NodeTypeSpec spec = toSpec(type);
                types.put(spec.name(), spec);
            }
            return types;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static NodeTypeSpec toSpec(JsonNode type) {
        JsonNode worker = type.get("worker");
        ObjectNode defaults = type.has("default_config") ? (ObjectNode) type.get("default_config")
                : JsonNodeFactory.instance.objectNode();
        return new NodeTypeSpec(type.get("name").asString(), type.get("display_name").asString(),
                type.get("description").asString(), type.get("category").asString(),
                NodeKind.fromLabel(type.get("kind").asString()),
                worker == null || worker.isNull() ? null : worker.asString(),
                type.get("config_schema"), defaults, true);
    }

    /** Names of all built-in types, in catalog order. */
    public List<String> names() {
        return new ArrayList<>(types.keySet());
    }
}
