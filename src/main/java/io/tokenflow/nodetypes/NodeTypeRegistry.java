package io.tokenflow.nodetypes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.types.BuiltInNodeTypes;
import io.tokenflow.engine.types.NodeKind;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;
import io.tokenflow.tenancy.CurrentTenant;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * All node types a workflow may use: the built-in ones and those registered in PostgreSQL by the tenant the thread
 * acts in ({@link CurrentTenant}; every tenant's on the engine's threads, which compile versions already checked).
 * {@link #snapshot()} reads the registered ones once, so a compilation sees one consistent set, on any app instance.
 */
@Component
public class NodeTypeRegistry {

    private final RegisteredNodeTypeRepository registered;
    private final JsonMapper json;

    NodeTypeRegistry(RegisteredNodeTypeRepository registered, JsonMapper json) {
        this.registered = registered;
        this.json = json;
    }

    @Transactional(readOnly = true)
    public NodeTypeCatalog snapshot() {
        Map<String, NodeTypeSpec> types = new LinkedHashMap<>();
        BuiltInNodeTypes.get().all().forEach(type -> types.put(type.name(), type));
        String tenant = CurrentTenant.orNull();
        for (RegisteredNodeType type : tenant == null ? registered.findAll() : registered.findByTenantId(tenant)) {
            types.putIfAbsent(type.name(), toSpec(type));
        }
        return new Snapshot(types);
    }

    private NodeTypeSpec toSpec(RegisteredNodeType type) {
        return new NodeTypeSpec(type.name(), type.displayName(), type.description(), "custom",
                NodeKind.fromLabel(type.kind()), type.name(), json.readTree(type.configSchema()),
                JsonNodeFactory.instance.objectNode(), false);
    }

    private record Snapshot(Map<String, NodeTypeSpec> types) implements NodeTypeCatalog {
        @Override
        public Optional<NodeTypeSpec> find(String name) {
            return Optional.ofNullable(types.get(name));
        }

        @Override
        public List<NodeTypeSpec> all() {
            return new ArrayList<>(types.values());
        }
    }
}
