package io.tokenflow.engine.compiler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.NodeDefinition;
import io.tokenflow.engine.dsl.SchemaErrors;
import io.tokenflow.engine.dsl.WorkflowDefinition;
import io.tokenflow.engine.types.NodeTypeCatalog;
import io.tokenflow.engine.types.NodeTypeSpec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Per-node checks that need no graph: unique ids, known types, and config valid against the type's schema. */
final class NodeChecks {

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final Map<String, Schema> configSchemas = new ConcurrentHashMap<>();

    void check(WorkflowDefinition workflow, NodeTypeCatalog types, Diagnostics diagnostics) {
        Map<String, NodeDefinition> seen = new HashMap<>();
        for (NodeDefinition node : workflow.nodes()) {
            NodeDefinition first = seen.putIfAbsent(node.id(), node);
            if (first != null) {
                diagnostics.error("duplicate-id", node.id(), node.at("id"), "Expected node ids to be unique, but '"
                        + node.id() + "' is also the id of the node at " + first.pointer());
            }
            types.find(node.type()).ifPresentOrElse(
                    spec -> checkConfig(node, spec, diagnostics),
                    () -> diagnostics.error("unknown-type", node.id(), node.at("type"), "Expected type to be one of "
                            + typeNames(types) + ", but found '" + node.type() + "'"));
        }
    }

    private void checkConfig(NodeDefinition node, NodeTypeSpec spec, Diagnostics diagnostics) {
        checkConfig(node.id(), node.at("config"), node.config(), spec, diagnostics);
    }

    /** Checks a config (with the type's defaults) against its type's schema; problems at {@code pointer}. */
    void checkConfig(String nodeId, String pointer, ObjectNode config, NodeTypeSpec spec, Diagnostics diagnostics) {
        Schema schema = configSchemas.computeIfAbsent(spec.name() + "@" + spec.configSchema().hashCode(),
                key -> registry.getSchema(spec.configSchema().toString()));
        for (Error error : schema.validate(withDefaults(config, spec))) {
            diagnostics.error("invalid-config", nodeId, pointer + SchemaErrors.pointerOf(error), "Expected the config "
                    + "of a '" + spec.name() + "' node to match its schema: " + describe(error));
        }
    }

    private static JsonNode withDefaults(ObjectNode config, NodeTypeSpec spec) {
        var merged = spec.defaultConfig().deepCopy();
        merged.setAll(config);
        return merged;
    }

    private static String describe(Error error) {
        if ("required".equals(error.getKeyword())) {
            return "member '" + error.getProperty() + "' is required, but it is missing";
        }
        String message = error.getMessage();
        int colon = message.indexOf(": ");
        return message.startsWith("$") && colon > 0 ? message.substring(colon + 2) : message;
    }

    private static List<String> typeNames(NodeTypeCatalog types) {
        return types.all().stream().map(NodeTypeSpec::name).toList();
    }
}
