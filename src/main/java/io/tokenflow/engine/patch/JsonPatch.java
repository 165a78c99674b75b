package io.tokenflow.engine.patch;

import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An immutable RFC 6902 JSON Patch: an ordered list of {@link PatchOperation}s.
 *
 * <p>{@link #apply(JsonNode)} never mutates its argument and is atomic: it works on a private copy and
 * either returns the fully patched copy or throws a {@link PatchException} naming the failing
 * operation. Instances are thread-safe. Hostile input is bounded: {@link #parse} accepts at most
 * {@link #MAX_OPERATIONS} operations and one application may bring in at most
 * {@link #MAX_INTRODUCED_NODES} JSON nodes through add, replace and copy.
 */
public final class JsonPatch {

    /** Most operations {@link #parse} accepts in one patch. */
    public static final int MAX_OPERATIONS = 10_000;

    /** Most JSON nodes (values, counting every nested one) add, replace and copy may bring in per application. */
    public static final long MAX_INTRODUCED_NODES = 1_000_000;

    private final List<PatchOperation> operations;

    private JsonPatch(List<PatchOperation> operations) {
        this.operations = List.copyOf(operations);
    }

    /** A patch of the given operations, in order. */
    public static JsonPatch of(List<PatchOperation> operations) {
        return new JsonPatch(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Reads a patch document (a JSON array of operation objects).
     *
     * @throws InvalidPatchException if it is not a well-formed patch or has more than {@link #MAX_OPERATIONS} operations
     */
    public static JsonPatch parse(JsonNode document) {
        return new JsonPatch(PatchParser.parse(Objects.requireNonNull(document, "document")));
    }

    /**
     * Reads a patch from JSON text, additionally rejecting any object with a repeated member name
     * (which a {@link JsonNode} could not reveal).
     *
     * @throws InvalidPatchException if the text is not JSON, repeats a member, or is not a well-formed patch
     */
    public static JsonPatch parse(String json) {
        return parse(PatchText.read(Objects.requireNonNull(json, "json")));
    }

    /**
     * A patch that turns {@code source} into {@code target}: {@code diff(s, t).apply(s).equals(t)}.
     * Uses add, remove and replace only, recursing into objects and arrays so small edits give small
     * patches; if that would take more than {@link #MAX_OPERATIONS} operations it replaces the whole document.
     */
    public static JsonPatch diff(JsonNode source, JsonNode target) {
        List<PatchOperation> operations = JsonDiff.between(Objects.requireNonNull(source, "source"),
                Objects.requireNonNull(target, "target"));
        if (operations.size() > MAX_OPERATIONS) {
            return new JsonPatch(List.of(new PatchOperation.Replace(JsonPointer.root(), target)));
        }
        return new JsonPatch(operations);
    }

    /**
     * Applies the operations in order to a copy of {@code target} and returns that copy.
     *
     * @throws PatchTestFailedException if a "test" operation does not hold
     * @throws PatchApplicationException if an operation cannot be applied to the document
     */
    public JsonNode apply(JsonNode target) {
        Objects.requireNonNull(target, "target");
        if (target.isMissingNode()) {
            throw new IllegalArgumentException("Expected a JSON document to patch, but it is a missing node");
        }
        return PatchExecutor.apply(operations, target);
    }

    /** The operations, in order (unmodifiable). */
    public List<PatchOperation> operations() {
        return operations;
    }

    /** The patch as its JSON array form, which {@link #parse(JsonNode)} reads back to an equal patch. */
    public JsonNode toJson() {
        ArrayNode array = JsonNodeFactory.instance.arrayNode(operations.size());
        operations.forEach(operation -> array.add(operation.toJson()));
        return array;
    }

    /** The number of operations. */
    public int size() {
        return operations.size();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JsonPatch patch && patch.operations.equals(operations);
    }

    @Override
    public int hashCode() {
        return operations.hashCode();
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
