package io.tokenflow.engine.patch;

import java.util.function.Supplier;

/** One operation being applied, with its position in the patch, for precise failure reports. */
record Step(int index, PatchOperation operation) {

    /** Runs a resolution; an unreachable location becomes a failure of this step at {@code member}. */
    <T> T locate(String action, String member, Supplier<T> resolution) {
        try {
            return resolution.get();
        } catch (UnreachableLocation e) {
            throw failure(action, e.reason(), member);
        }
    }

    /** "Expected operation 2 (remove) to {action}, but {reason}", pointing at {@code member} ("" = the operation). */
    PatchApplicationException failure(String action, String reason, String member) {
        String message = "Expected operation " + index + " (" + operation.op() + ") to " + action + ", but " + reason;
        return new PatchApplicationException(message, index, pointer(member));
    }

    /** JSON Pointer into the patch document of this operation's member, or of the operation itself for "". */
    String pointer(String member) {
        return member.isEmpty() ? "/" + index : "/" + index + "/" + member;
    }
}
