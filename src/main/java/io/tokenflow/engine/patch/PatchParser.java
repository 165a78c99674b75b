package io.tokenflow.engine.patch;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * Reads a JSON Patch document into operations, reporting the first malformation as an
 * {@link InvalidPatchException}. Members an operation does not use are ignored, as RFC 6902 §4 requires.
 */
final class PatchParser {

    private static final String OPERATION_NAMES = "\"add\", \"remove\", \"replace\", \"move\", \"copy\" or \"test\"";

    private PatchParser() {
    }

    static List<PatchOperation> parse(JsonNode document) {
        if (!document.isArray()) {
            throw new InvalidPatchException("Expected a JSON Patch to be an array of operations, but it is "
                    + Wording.kind(document), -1, "");
        }
        if (document.size() > JsonPatch.MAX_OPERATIONS) {
            throw new InvalidPatchException("Expected a JSON Patch to have at most " + JsonPatch.MAX_OPERATIONS
                    + " operations, but it has " + document.size(), JsonPatch.MAX_OPERATIONS,
                    "/" + JsonPatch.MAX_OPERATIONS);
        }
        List<PatchOperation> operations = new ArrayList<>(document.size());
        for (int index = 0; index < document.size(); index++) {
            operations.add(operation(index, document.get(index)));
        }
        return operations;
    }

    private static PatchOperation operation(int index, JsonNode node) {
        if (!node.isObject()) {
            throw new InvalidPatchException("Expected operation " + index + " to be an object, but it is "
                    + Wording.kindAndValue(node), index, "/" + index);
        }
        Members members = new Members(index, node);
        String op = members.string("op", "operation " + index);
        String subject = "operation " + index + " (" + op + ")";
        return switch (op) {
            case "add" -> new PatchOperation.Add(members.pointer("path", subject), members.value(subject));
            case "remove" -> new PatchOperation.Remove(members.pointer("path", subject));
            case "replace" -> new PatchOperation.Replace(members.pointer("path", subject), members.value(subject));
            case "move" -> new PatchOperation.Move(members.pointer("from", subject), members.pointer("path", subject));
            case "copy" -> new PatchOperation.Copy(members.pointer("from", subject), members.pointer("path", subject));
            case "test" -> new PatchOperation.Test(members.pointer("path", subject), members.value(subject));
            default -> throw new InvalidPatchException("Expected operation " + index + " to have an \"op\" of "
                    + OPERATION_NAMES + ", but it is " + Wording.quote(op), index, "/" + index + "/op");
        };
    }

    /** The members of one operation object, with typed accessors that fail with precise messages. */
    private record Members(int index, JsonNode node) {

        String string(String name, String subject) {
            JsonNode member = node.get(name);
            if (member == null || !member.isString()) {
                throw invalid(subject + " to have a string member " + Wording.quote(name) + ", but it is "
                        + (member == null ? "missing" : Wording.kindAndValue(member)), name);
            }
            return member.stringValue();
        }

        JsonPointer pointer(String name, String subject) {
            String text = string(name, subject);
            try {
                return JsonPointer.parse(text);
            } catch (InvalidJsonPointerException e) {
                throw invalid(subject + " to have a JSON Pointer in " + Wording.quote(name) + ", but "
                        + e.reason(), name);
            }
        }

        JsonNode value(String subject) {
            JsonNode member = node.get("value");
            if (member == null) {
                throw invalid(subject + " to have a member \"value\", but it is missing", "value");
            }
            return member;
        }

        private InvalidPatchException invalid(String expectation, String name) {
            return new InvalidPatchException("Expected " + expectation, index, "/" + index + "/" + name);
        }
    }
}
