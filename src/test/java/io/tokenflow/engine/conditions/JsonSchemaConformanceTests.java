package io.tokenflow.engine.conditions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.networknt.schema.Schema;
import io.tokenflow.ConformanceData;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the JSON Schema Test Suite, draft 2020-12 (required tests), through the validator schema_validation
 * conditions use ({@link JsonSchemas}: networknt 3 with patterns on RE2J). The suite's remote schemas
 * ({@code http://localhost:1234/}) are mapped to its {@code remotes/} folder. Prints the pass rate and the failures
 * by file; fails only below the measured level.
 */
class JsonSchemaConformanceTests {

    /** Measured with networknt json-schema-validator 3.0.9 and RE2J patterns; raise it, never lower it. */
    private static final int MIN_PASSED = 1294;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void draft2020Conformance() throws IOException {
        Path suite = ConformanceData.folder("json-schema", "draft2020-12");
        JsonSchemas schemas = new JsonSchemas(uri -> remote(suite, uri));
        int total = 0;
        int passed = 0;
        Map<String, List<String>> failuresByFile = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> listed = Files.list(suite.resolve("draft2020-12"))) {
            files = listed.filter(file -> file.toString().endsWith(".json")).sorted().toList();
        }
        for (Path file : files) {
            for (JsonNode testCase : JSON.readTree(Files.readString(file))) {
                String[] loadProblem = new String[1];
                Schema schema = load(schemas, testCase.get("schema"), loadProblem);
                for (JsonNode test : testCase.get("tests")) {
                    total++;
                    if (schema != null && agrees(schema, test)) {
                        passed++;
                    } else {
                        failuresByFile.computeIfAbsent(file.getFileName().toString(), f -> new java.util.ArrayList<>())
                                .add(testCase.get("description").asString() + " / " + test.get("description").asString()
                                        + (schema == null ? " (schema not loaded: " + loadProblem[0] + ")" : ""));
                    }
                }
            }
        }
        System.out.printf("JSON Schema 2020-12 conformance: %d tests in %d files, %d passed (%.1f%%), %d failed%n",
                total, files.size(), passed, 100.0 * passed / total, total - passed);
        failuresByFile.forEach((file, failed) -> {
            System.out.printf("  %s: %d failed%n", file, failed.size());
            failed.forEach(description -> System.out.println("    " + description));
        });
        assertThat(passed).as("JSON Schema tests passing (measured minimum)").isGreaterThanOrEqualTo(MIN_PASSED);
    }

    /** The suite's remote schemas, served from remotes/ as the suite's runner rules say. */
    private static String remote(Path suite, String uri) {
        String prefix = "http://localhost:1234/";
        Path file = uri.startsWith(prefix) ? suite.resolve("remotes").resolve(uri.substring(prefix.length())) : null;
        try {
            return file != null && Files.isRegularFile(file) ? Files.readString(file) : null;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Schema load(JsonSchemas schemas, JsonNode schema, String[] problem) {
        try {
            return schemas.load(schema);
        } catch (RuntimeException e) {
            problem[0] = e.getMessage();
            return null;
        }
    }

    private static boolean agrees(Schema schema, JsonNode test) {
        try {
            return JsonSchemas.matches(schema, test.get("data")) == test.get("valid").asBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
