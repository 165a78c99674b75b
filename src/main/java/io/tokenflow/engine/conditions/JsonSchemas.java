package io.tokenflow.engine.conditions;

import java.util.List;
import java.util.function.Function;

import com.google.re2j.Pattern;
import com.networknt.schema.Error;
import com.networknt.schema.OutputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.regex.RegularExpressionFactory;
import tools.jackson.databind.JsonNode;

/**
 * JSON Schema draft 2020-12 for conditions: schemas are checked against the meta-schema, their {@code pattern}s run
 * on RE2J (linear time, so no pattern can backtrack without bound; patterns RE2 cannot run, such as back-references,
 * are refused), and nothing is fetched over the network.
 */
final class JsonSchemas {

    static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    /** ECMA-262 {@code pattern} semantics: a match anywhere in the text. */
    private static final RegularExpressionFactory RE2 = regex -> {
        Pattern pattern = Pattern.compile(regex);
        return value -> pattern.matcher(value).find();
    };

    private final SchemaRegistry registry;

    /**
     * @param documents the text of the documents schemas may refer to by URI (a test suite's remote schemas), null
     *                  for unknown ones; conditions have none
     */
    JsonSchemas(Function<String, String> documents) {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder().regularExpressionFactory(RE2).build();
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, builder -> builder
                .schemaRegistryConfig(config)
                .schemaLoader(loader -> loader.fetchRemoteResources(false)
                        .resourceLoaders(loaders -> loaders.resources(documents))));
    }

    JsonSchemas() {
        this(uri -> null);
    }

    /** The meta-schema's complaints about {@code schema}; empty when it is a valid 2020-12 schema. */
    List<Error> metaSchemaErrors(JsonNode schema) {
        return registry.getSchema(SchemaLocation.of(META_SCHEMA)).validate(schema);
    }

    /**
     * @throws RuntimeException (networknt's or RE2J's) when the schema cannot be loaded, e.g. a pattern RE2 refuses
     */
    Schema load(JsonNode schema) {
        Schema loaded = registry.getSchema(schema);
        loaded.initializeValidators();
        return loaded;
    }

    static boolean matches(Schema schema, JsonNode value) {
        return schema.validate(value, OutputFormat.BOOLEAN);
    }
}
