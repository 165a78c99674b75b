package io.tokenflow.engine.conditions;

import java.util.List;
import java.util.Optional;
import java.util.Set;
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
import io.tokenflow.engine.dsl.SchemaErrors;
import tools.jackson.databind.JsonNode;

/**
 * JSON Schema draft 2020-12 for what users write as schemas (conditions, a workflow's declared inputs): schemas are
 * checked against the meta-schema, their {@code pattern}s run on RE2J (linear time, so no pattern can backtrack
 * without bound; patterns RE2 cannot run, such as back-references, are refused), and nothing is fetched over the
 * network.
 */
public final class JsonSchemas {

    /** Where a schema is at fault (a JSON pointer inside it) and why. */
    public record Problem(String pointer, String message) {
    }

    /** Length and count keywords: the meta-schema takes any number without a fraction, the validators read ints. */
    private static final Set<String> COUNT_KEYWORDS = Set.of("maxLength", "minLength", "maxItems", "minItems",
            "maxProperties", "minProperties", "maxContains", "minContains");

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

    public JsonSchemas() {
        this(uri -> null);
    }

    /**
     * What is wrong with {@code schema} as a schema users may give (empty when nothing): a reference to another
     * document, a length or count beyond Java's int (1e308 passes the meta-schema but fails the validators), a
     * meta-schema complaint, or a pattern RE2 cannot run.
     */
    public Optional<Problem> problem(JsonNode schema) {
        Optional<String> external = externalReference(schema, "");
        if (external.isPresent()) {
            return Optional.of(new Problem(external.get(), "Expected only references inside the schema (#…), but "
                    + "found one to another document; nothing is fetched"));
        }
        Optional<String> tooLarge = countBeyondInt(schema, "");
        if (tooLarge.isPresent()) {
            String keyword = tooLarge.get().substring(tooLarge.get().lastIndexOf('/') + 1);
            return Optional.of(new Problem(tooLarge.get(), "Expected " + keyword + " to be a whole number from 0 to "
                    + Integer.MAX_VALUE + ", but found " + schema.at(tooLarge.get())));
        }
        List<Error> errors;
        try {
            errors = metaSchemaErrors(schema);
        } catch (RuntimeException e) {
            // the meta-schema's own validators fail on some values rather than report them
            return Optional.of(new Problem("", "Expected a valid JSON Schema (draft 2020-12), but it cannot be "
                    + "checked: " + e.getMessage()));
        }
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            return Optional.of(new Problem(SchemaErrors.pointerOf(first), "Expected a valid JSON Schema (draft "
                    + "2020-12), but " + first.getMessage()));
        }
        try {
            load(schema);
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(new Problem("", "Expected a JSON Schema whose patterns RE2 can run in linear time (no "
                    + "back-references or look-arounds), but " + e.getMessage()));
        }
    }

    /** The meta-schema's complaints about {@code schema}; empty when it is a valid 2020-12 schema. */
    public List<Error> metaSchemaErrors(JsonNode schema) {
        return registry.getSchema(SchemaLocation.of(META_SCHEMA)).validate(schema);
    }

    /**
     * @throws RuntimeException (networknt's or RE2J's) when the schema cannot be loaded, e.g. a pattern RE2 refuses
     */
    public Schema load(JsonNode schema) {
        Schema loaded = registry.getSchema(schema);
        loaded.initializeValidators();
        return loaded;
    }

    public static boolean matches(Schema schema, JsonNode value) {
        return schema.validate(value, OutputFormat.BOOLEAN);
    }
    /** The pointer of the first length or count keyword beyond Java's int, if any. */
    private static Optional<String> countBeyondInt(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (var entry : node.properties()) {
                String at = pointer + "/" + escape(entry.getKey());
                JsonNode value = entry.getValue();
                if (COUNT_KEYWORDS.contains(entry.getKey()) && value.isNumber() && !value.canConvertToInt()) {
                    return Optional.of(at);
                }
                Optional<String> inside = countBeyondInt(value, at);
                if (inside.isPresent()) {
                    return inside;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> inside = countBeyondInt(node.get(i), pointer + "/" + i);
                if (inside.isPresent()) {
                    return inside;
                }
            }
        }
        return Optional.empty();
    }

    /** The pointer of the first {@code $ref} or {@code $dynamicRef} that leaves the schema, if any. */
    private static Optional<String> externalReference(JsonNode node, String pointer) {
        if (node.isObject()) {
            for (var member : node.properties()) {
                String at = pointer + "/" + escape(member.getKey());
                boolean reference = member.getKey().equals("$ref") || member.getKey().equals("$dynamicRef");
                if (reference && !member.getValue().asString("").startsWith("#")) {
                    return Optional.of(at);
                }
                Optional<String> inner = externalReference(member.getValue(), at);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> inner = externalReference(node.get(i), pointer + "/" + i);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
