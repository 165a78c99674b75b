package io.tokenflow.engine.conditions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.google.common.primitives.UnsignedLong;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.values.NullValue;
import io.tokenflow.ConformanceData;
import io.tokenflow.engine.cel.CelExpressionException;
import io.tokenflow.engine.cel.CelExpressions;
import io.tokenflow.engine.cel.CelLimits;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the CEL conformance cases of {@code shared/conformance/cel/cel-simple.json} (google/cel-spec "simple" tests,
 * 15 files) through the engine's CEL ({@link CelExpressions}). In scope: every converted case except those that
 * upstream runs without the type-checker ({@code disable_check}), since conditions are always type-checked and
 * cel-java only runs checked programs. Prints the pass rate and the failures by file and section; fails only below
 * the measured level.
 */
class CelConformanceTests {

    /** Measured with cel-java 0.14.0; raise it when CEL gets better, never lower it. */
    private static final int MIN_PASSED = 931;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final CelLimits LIMITS = new CelLimits(Duration.ofSeconds(5), 100_000, 1000);

    private final Map<String, CelExpressions> environments = new HashMap<>();

    @Test
    void celSimpleConformance() throws IOException {
        Path file = ConformanceData.folder("cel", "cel-simple.json").resolve("cel-simple.json");
        JsonNode cases = JSON.readTree(Files.readString(file));
        int passed = 0;
        int inScope = 0;
        Map<String, List<String>> failures = new TreeMap<>();
        for (JsonNode testCase : cases) {
            if (testCase.get("disable_check").asBoolean()) {
                continue;
            }
            inScope++;
            String problem = problemWith(testCase);
            if (problem == null) {
                passed++;
            } else {
                failures.computeIfAbsent(testCase.get("file").asString() + "/" + testCase.get("section").asString(),
                        section -> new ArrayList<>()).add(testCase.get("name").asString() + ": " + problem);
            }
        }
        System.out.printf("CEL conformance: %d cases in scope (of %d; %d run unchecked upstream), %d passed (%.1f%%), "
                + "%d failed%n", inScope, cases.size(), cases.size() - inScope, passed, 100.0 * passed / inScope,
                inScope - passed);
        failures.forEach((section, names) -> {
            System.out.printf("  %s: %d failed%n", section, names.size());
            names.forEach(name -> System.out.println("    " + name));
        });
        assertThat(passed).as("CEL conformance cases passing (measured minimum)").isGreaterThanOrEqualTo(MIN_PASSED);
    }

    /** Null when the engine does what the case says, else what went wrong. */
    private String problemWith(JsonNode testCase) {
        boolean expectError = testCase.get("expect_error").asBoolean();
        Object result;
        try {
            CelExpressions cel = environment(testCase);
            Map<String, Object> bindings = new LinkedHashMap<>();
            testCase.get("bindings").forEachEntry((name, value) -> bindings.put(name, decode(value)));
            result = cel.evaluate(testCase.get("expr").asString(), bindings);
        } catch (CelExpressionException e) {
            return expectError ? null : "error: " + e.getMessage();
        } catch (RuntimeException e) {
            return expectError ? null : "crash: " + e;
        }
        if (expectError) {
            return "expected an error, got " + result;
        }
        Object expected = decode(testCase.get("expected"));
        return same(expected, result) ? null : "expected " + expected + ", got " + result;
    }

    private CelExpressions environment(JsonNode testCase) {
        String container = testCase.get("container").asString();
        String key = container + "|" + testCase.get("type_env");
        return environments.computeIfAbsent(key, k -> {
            Map<String, CelType> variables = new LinkedHashMap<>();
            testCase.get("type_env").forEachEntry((name, type) -> variables.put(name, type(type.asString())));
            return new CelExpressions(LIMITS, variables, container);
        });
    }

    static CelType type(String text) {
        if (text.startsWith("list(") && text.endsWith(")")) {
            return ListType.create(type(text.substring(5, text.length() - 1).trim()));
        }
        if (text.startsWith("map(") && text.endsWith(")")) {
            String inner = text.substring(4, text.length() - 1);
            int comma = topLevelComma(inner);
            return MapType.create(type(inner.substring(0, comma).trim()), type(inner.substring(comma + 1).trim()));
        }
        return switch (text) {
            case "int" -> SimpleType.INT;
            case "uint" -> SimpleType.UINT;
            case "double" -> SimpleType.DOUBLE;
            case "string" -> SimpleType.STRING;
            case "bool" -> SimpleType.BOOL;
            case "bytes" -> SimpleType.BYTES;
            case "null_type" -> SimpleType.NULL_TYPE;
            case "google.protobuf.Timestamp" -> SimpleType.TIMESTAMP;
            case "google.protobuf.Duration" -> SimpleType.DURATION;
            default -> SimpleType.DYN;
        };
    }

    private static int topLevelComma(String text) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("Expected a map type with key and value, but found map(" + text + ")");
    }

    /** A tagged conformance value as the Java value CEL uses. */
    static Object decode(JsonNode tagged) {
        String tag = tagged.propertyNames().iterator().next();
        JsonNode value = tagged.get(tag);
        return switch (tag) {
            case "null" -> NullValue.NULL_VALUE;
            case "bool" -> value.booleanValue();
            case "int" -> value.longValue();
            case "uint" -> UnsignedLong.valueOf(value.bigIntegerValue());
            case "double" -> value.isString() ? Double.parseDouble(value.asString()) : value.doubleValue();
            case "string" -> value.asString();
            case "list" -> {
                List<Object> list = new ArrayList<>();
                value.forEach(element -> list.add(decode(element)));
                yield list;
            }
            case "map" -> {
                Map<Object, Object> map = new LinkedHashMap<>();
                value.forEach(entry -> map.put(decode(entry.get("key")), decode(entry.get("value"))));
                yield map;
            }
            default -> throw new IllegalArgumentException("Expected a known value tag, but found " + tag);
        };
    }

    /** CEL equality of results: same kind, numbers by value (NaN matches NaN), maps ignoring order. */
    static boolean same(Object expected, Object actual) {
        if (expected instanceof Double e && actual instanceof Double a) {
            return e.isNaN() ? a.isNaN() : e.doubleValue() == a.doubleValue();
        }
        if (expected instanceof List<?> e && actual instanceof List<?> a) {
            if (e.size() != a.size()) {
                return false;
            }
            for (int i = 0; i < e.size(); i++) {
                if (!same(e.get(i), a.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (expected instanceof Map<?, ?> e && actual instanceof Map<?, ?> a) {
            return e.size() == a.size() && e.entrySet().stream()
                    .allMatch(entry -> a.containsKey(entry.getKey()) && same(entry.getValue(), a.get(entry.getKey())));
        }
        if (expected instanceof NullValue) {
            return actual instanceof NullValue || actual instanceof com.google.protobuf.NullValue;
        }
        return expected.equals(actual);
    }
}
