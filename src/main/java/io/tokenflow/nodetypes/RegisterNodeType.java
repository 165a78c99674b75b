package io.tokenflow.nodetypes;

import java.time.Clock;
import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.engine.types.BuiltInNodeTypes;
import io.tokenflow.tenancy.CurrentTenant;
import io.tokenflow.web.BadRequestException;
import io.tokenflow.web.ConflictException;
import io.tokenflow.web.NotFoundException;
import io.tokenflow.web.RequestJson;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Registers custom task types for external workers: {@code {"displayName", "description", "configSchema"}}. The
 * config schema must itself be a valid JSON Schema (draft 2020-12). Built-in types cannot be replaced. A type belongs
 * to the tenant that registered it; its name is unique across tenants, as it names the task stream its workers read,
 * so another tenant's name is refused (409) and another tenant's type is not found (404).
 */
@Service
class RegisterNodeType {

    private static final String NAME = "[a-z][a-z0-9_]{0,62}";
    private static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    private final RegisteredNodeTypeRepository registered;
    private final JsonMapper json;
    private final Clock clock;
    private final SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    RegisterNodeType(RegisteredNodeTypeRepository registered, JsonMapper json, Clock clock) {
        this.registered = registered;
        this.json = json;
        this.clock = clock;
    }

    @Transactional
    void register(String name, String body, String author) {
        if (!name.matches(NAME)) {
            throw new BadRequestException("Expected a type name of lower-case letters, digits and '_' starting with "
                    + "a letter, but found '" + name + "'", "path:name");
        }
        if (BuiltInNodeTypes.get().find(name).isPresent()) {
            throw new ConflictException("Expected a name that is not a built-in type, but '" + name + "' is built in");
        }
        JsonNode request = parse(body);
        String displayName = request.path("displayName").asString(name);
        JsonNode configSchema = request.has("configSchema") ? request.get("configSchema") : json.createObjectNode();
        checkSchema(configSchema);
        var now = clock.instant();
        String tenant = CurrentTenant.forNewRows();
        RegisteredNodeType type = registered.findById(name).orElseGet(() -> new RegisteredNodeType(name, tenant, author,
                now));
        if (!type.tenantId().equals(tenant)) {
            throw new ConflictException("Expected a node type name no other tenant uses (it names the task stream "
                    + "wf.tasks." + name + "), but '" + name + "' is another tenant's");
        }
        type.describe(displayName, request.path("description").asString(null), "task", json.writeValueAsString(configSchema), now);
        registered.save(type);
    }

    @Transactional
    void remove(String name) {
        RegisteredNodeType type = registered.findById(name).filter(found -> CurrentTenant.sees(found.tenantId()))
                .orElseThrow(() -> new NotFoundException("Expected a registered node type named '" + name + "', but "
                        + "there is none"));
        registered.delete(type);
    }

    private JsonNode parse(String body) {
        return RequestJson.object(body, java.util.Set.of("displayName", "description", "configSchema"));
    }

    private void checkSchema(JsonNode configSchema) {
        if (!configSchema.isObject()) {
            throw new BadRequestException("Expected configSchema to be a JSON Schema object", "/configSchema");
        }
        List<Error> errors = schemas.getSchema(SchemaLocation.of(META_SCHEMA)).validate(configSchema);
        if (!errors.isEmpty()) {
            throw new BadRequestException("Expected configSchema to be a valid JSON Schema (draft 2020-12), but "
                    + errors.get(0).getMessage(), "/configSchema");
        }
        refuseExternalReferences(configSchema, "/configSchema");
    }

    /** Only local references ({@code #/...}) are allowed: validating must never fetch anything. */
    private static void refuseExternalReferences(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (var entry : node.properties()) {
                String at = pointer + "/" + entry.getKey().replace("~", "~0").replace("/", "~1");
                boolean reference = entry.getKey().equals("$ref") || entry.getKey().equals("$dynamicRef");
                if (reference && !entry.getValue().asString("").startsWith("#")) {
                    throw new BadRequestException("Expected only local references (#/...) in configSchema, but "
                            + "found " + entry.getValue(), at);
                }
                refuseExternalReferences(entry.getValue(), at);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                refuseExternalReferences(node.get(i), pointer + "/" + i);
            }
        }
    }
}
