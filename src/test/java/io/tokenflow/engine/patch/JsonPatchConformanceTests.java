package io.tokenflow.engine.patch;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/**
 * Runs every record of the json-patch-tests conformance suite against {@link JsonPatch}. Records with
 * "expected" must produce it, records with "error" must throw a {@link PatchException}, records with
 * neither must apply cleanly; in all cases the input document must come back unmodified. Records marked
 * "disabled" upstream are still run and their outcome is reported, but they are shown as skipped and do
 * not fail the build. Patches are read from their raw text with {@link JsonPatch#parse(String)}, so a
 * repeated member such as two "op"s is visible and rejected (spec_tests A.13, tests "duplicate ops").
 * A missing suite fails the run; it is never skipped silently.
 */
class JsonPatchConformanceTests {

    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger PASSED = new AtomicInteger();
    private static final AtomicInteger FAILED = new AtomicInteger();
    private static final AtomicInteger DISABLED = new AtomicInteger();
    private static final AtomicInteger DISABLED_PASSING = new AtomicInteger();

    /** JSON equality independent of the engine's: numbers by value, member order ignored (Jackson's own walk). */
    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (left, right) -> left.equals(right)
            || left.isNumber() && right.isNumber() && left.decimalValue().compareTo(right.decimalValue()) == 0 ? 0 : 1;

    @TestFactory
    List<DynamicTest> conformanceSuite() throws IOException {
        Path directory = ConformanceSuite.directory();
        List<DynamicTest> tests = new ArrayList<>();
        for (String file : ConformanceSuite.FILES) {
            for (ConformanceSuite.Case testCase : ConformanceSuite.load(directory, file)) {
                tests.add(DynamicTest.dynamicTest(testCase.name(), () -> run(testCase)));
            }
        }
        return tests;
    }

    @AfterAll
    static void printSummary() {
        System.out.printf("JSON Patch conformance: %d cases, %d passed, %d failed, %d disabled "
                + "(of which %d would pass)%n", CASES.get(), PASSED.get(), FAILED.get(), DISABLED.get(),
                DISABLED_PASSING.get());
    }

    private static void run(ConformanceSuite.Case testCase) {
        CASES.incrementAndGet();
        String problem = problemWith(testCase);
        if (testCase.disabled()) {
            DISABLED.incrementAndGet();
            if (problem == null) {
                DISABLED_PASSING.incrementAndGet();
            }
            Assumptions.abort("Disabled upstream; the engine " + (problem == null ? "passes it" : "fails it: " + problem));
        }
        (problem == null ? PASSED : FAILED).incrementAndGet();
        if (problem != null) {
            fail(problem);
        }
    }

    /** Null if the engine behaves as the record says, else what went wrong. */
    private static String problemWith(ConformanceSuite.Case testCase) {
        JsonNode record = testCase.record();
        JsonNode document = record.path("doc");
        JsonNode pristine = document.deepCopy();
        String problem;
        try {
            JsonNode result = patch(testCase).apply(document);
            problem = outcomeProblem(record, result);
        } catch (PatchException e) {
            problem = record.has("error") ? null
                    : "Expected the patch to apply, but it threw " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        if (problem == null && !document.equals(pristine)) {
            problem = "Expected the input document to stay " + pristine + ", but it became " + document;
        }
        return problem;
    }

    private static JsonPatch patch(ConformanceSuite.Case testCase) {
        return testCase.patchText() != null
                ? JsonPatch.parse(testCase.patchText())
                : JsonPatch.parse(testCase.record().path("patch"));
    }

    private static String outcomeProblem(JsonNode record, JsonNode result) {
        if (record.has("error")) {
            return "Expected a PatchException (" + record.get("error").asString() + "), but the result is " + result;
        }
        JsonNode expected = record.get("expected");
        if (expected != null && !expected.equals(NUMBERS_BY_VALUE, result)) {
            return "Expected " + expected + ", but the result is " + result;
        }
        return null;
    }
}
