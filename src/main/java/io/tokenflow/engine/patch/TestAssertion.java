package io.tokenflow.engine.patch;

import tools.jackson.databind.JsonNode;

/** Evaluates a "test" operation: the value at its path must exist and be {@link JsonEquivalence equivalent}. */
final class TestAssertion {

    private TestAssertion() {
    }

    static void check(Step step, JsonNode document, PatchOperation.Test test) {
        JsonNode actual;
        try {
            actual = TreeLocator.valueAt(document, test.path());
        } catch (UnreachableLocation e) {
            throw failure(step, test, e.reason(), "path");
        }
        if (!JsonEquivalence.equivalent(actual, test.value())) {
            throw failure(step, test, "it is " + Wording.render(actual), "value");
        }
    }

    private static PatchTestFailedException failure(Step step, PatchOperation.Test test, String reason, String member) {
        String message = "Expected value at " + Wording.quote(test.path().toString()) + " to equal "
                + Wording.render(test.value()) + " (test operation " + step.index() + "), but " + reason;
        return new PatchTestFailedException(message, step.index(), step.pointer(member));
    }
}
