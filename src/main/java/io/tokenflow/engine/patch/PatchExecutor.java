package io.tokenflow.engine.patch;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Applies operations, in order, to a private deep copy of the target, so a failure anywhere leaves
 * the caller's tree untouched and nothing half-patched escapes. Counts the nodes that operations
 * bring in and stops at {@link JsonPatch#MAX_INTRODUCED_NODES}, so repeated copies cannot explode.
 */
final class PatchExecutor {

    private JsonNode document;
    private long introducedNodes;

    private PatchExecutor(JsonNode target) {
        this.document = target.deepCopy();
    }

    static JsonNode apply(List<PatchOperation> operations, JsonNode target) {
        PatchExecutor executor = new PatchExecutor(target);
        for (int index = 0; index < operations.size(); index++) {
            executor.apply(new Step(index, operations.get(index)));
        }
        return executor.document;
    }

    private void apply(Step step) {
        PatchOperation operation = step.operation();
        if (operation instanceof PatchOperation.Add add) {
            add(step, add.path(), introduced(step, add.value()));
        } else if (operation instanceof PatchOperation.Remove remove) {
            remove(step, remove.path(), "path");
        } else if (operation instanceof PatchOperation.Replace replace) {
            replace(step, replace.path(), introduced(step, replace.value()));
        } else if (operation instanceof PatchOperation.Move move) {
            move(step, move.from(), move.path());
        } else if (operation instanceof PatchOperation.Copy copy) {
            JsonNode source = step.locate("find a value at " + Wording.location(copy.from()), "from",
                    () -> TreeLocator.valueAt(document, copy.from()));
            add(step, copy.path(), introduced(step, source).deepCopy());
        } else {
            TestAssertion.check(step, document, (PatchOperation.Test) operation);
        }
    }

    private void add(Step step, JsonPointer path, JsonNode value) {
        if (path.isRoot()) {
            document = value;
            return;
        }
        step.locate("add a value at " + Wording.quote(path.toString()), "path", () -> {
            JsonNode container = TreeLocator.containerOf(document, path);
            if (container.isObject()) {
                ((ObjectNode) container).set(path.last(), value);
            } else {
                ArrayNode array = (ArrayNode) container;
                array.insert(TreeLocator.insertionIndex(array, path.parent(), path.last()), value);
            }
            return value;
        });
    }

    private JsonNode remove(Step step, JsonPointer path, String member) {
        if (path.isRoot()) {
            throw step.failure("remove a value inside the document", "the root \"\" cannot be removed", member);
        }
        return step.locate("find a value at " + Wording.quote(path.toString()), member, () -> {
            JsonNode container = TreeLocator.containerOf(document, path);
            if (container.isObject()) {
                TreeLocator.member(container, path.parent(), path.last());
                return ((ObjectNode) container).remove(path.last());
            }
            ArrayNode array = (ArrayNode) container;
            return array.remove(TreeLocator.existingIndex(array, path.parent(), path.last()));
        });
    }

    private void replace(Step step, JsonPointer path, JsonNode value) {
        if (path.isRoot()) {
            document = value;
            return;
        }
        step.locate("find a value at " + Wording.quote(path.toString()), "path", () -> {
            JsonNode container = TreeLocator.containerOf(document, path);
            if (container.isObject()) {
                TreeLocator.member(container, path.parent(), path.last());
                return ((ObjectNode) container).set(path.last(), value);
            }
            ArrayNode array = (ArrayNode) container;
            return array.set(TreeLocator.existingIndex(array, path.parent(), path.last()), value);
        });
    }

    private void move(Step step, JsonPointer from, JsonPointer path) {
        if (from.equals(path)) {
            step.locate("find a value at " + Wording.location(from), "from", () -> TreeLocator.valueAt(document, from));
            return;
        }
        if (from.isPrefixOf(path)) {
            throw step.failure("move " + Wording.location(from) + " to a location outside itself",
                    Wording.quote(path.toString()) + " lies inside it", "path");
        }
        add(step, path, remove(step, from, "from"));
    }

    /** Counts the value against the patch's node budget and returns it. */
    private JsonNode introduced(Step step, JsonNode value) {
        long remaining = JsonPatch.MAX_INTRODUCED_NODES - introducedNodes;
        long count = countUpTo(value, remaining + 1);
        if (count > remaining) {
            throw step.failure("keep the nodes added by the patch within " + JsonPatch.MAX_INTRODUCED_NODES,
                    "this operation would exceed that limit", "");
        }
        introducedNodes += count;
        return value;
    }

    private static long countUpTo(JsonNode value, long limit) {
        Deque<JsonNode> pending = new ArrayDeque<>();
        pending.push(value);
        long count = 0;
        while (!pending.isEmpty() && count < limit) {
            JsonNode node = pending.pop();
            count++;
            node.forEach(pending::push);
        }
        return count;
    }
}
