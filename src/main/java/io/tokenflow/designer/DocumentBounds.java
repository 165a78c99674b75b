package io.tokenflow.designer;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

import io.tokenflow.engine.dsl.Diagnostic;
import io.tokenflow.engine.dsl.Severity;
import io.tokenflow.web.LimitsSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The size and nesting limits of a workflow document about to be stored ({@code tokenflow.limits}). The request's
 * body is limited on its own, but a small JSON Patch can make a large document (an operation copying a subtree into
 * itself doubles it), and a document nested as deep as the JSON parser allows is stored but cannot be written back
 * inside a response. The deepest value is named by its pointer.
 */
final class DocumentBounds {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DocumentBounds() {
    }

    /** The diagnostic of the first limit the document goes past, if any. */
    static Optional<Diagnostic> check(JsonNode document, LimitsSettings limits) {
        if (document == null) {
            return Optional.empty();
        }
        Optional<String> tooDeep = deeperThan(document, limits.maxDocumentDepth());
        if (tooDeep.isPresent()) {
            return Optional.of(new Diagnostic(Severity.ERROR, "too-deep", null, tooDeep.get(), "Expected objects and "
                    + "arrays nested at most " + limits.maxDocumentDepth() + " deep (tokenflow.limits.max-document-depth)"
                    + ", but the value at " + tooDeep.get() + " is deeper"));
        }
        long bytes;
        try {
            bytes = JSON.writeValueAsBytes(document).length;
        } catch (JacksonException e) {
            return Optional.of(new Diagnostic(Severity.ERROR, "too-large", null, "", "Expected a document that can be "
                    + "written as JSON, but it cannot: " + e.getOriginalMessage()));
        }
        if (bytes > limits.maxDocumentBytes()) {
            return Optional.of(new Diagnostic(Severity.ERROR, "too-large", null, "", "Expected a document of at most "
                    + limits.maxDocumentBytes() + " bytes (tokenflow.limits.max-document-bytes), but it has " + bytes));
        }
        return Optional.empty();
    }

    /** The pointer of the first container nested deeper than {@code max} (the document itself is depth 1). */
    private static Optional<String> deeperThan(JsonNode document, int max) {
        record Level(JsonNode node, String pointer, int depth) {
        }
        Deque<Level> pending = new ArrayDeque<>();
        pending.push(new Level(document, "", 1));
        while (!pending.isEmpty()) {
            Level level = pending.pop();
            if (!level.node().isContainer()) {
                continue;
            }
            if (level.depth() > max) {
                return Optional.of(level.pointer());
            }
            if (level.node().isArray()) {
                for (int i = 0; i < level.node().size(); i++) {
                    pending.push(new Level(level.node().get(i), level.pointer() + "/" + i, level.depth() + 1));
                }
            } else {
                Iterator<Map.Entry<String, JsonNode>> fields = level.node().properties().iterator();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    pending.push(new Level(field.getValue(), level.pointer() + "/" + escape(field.getKey()),
                            level.depth() + 1));
                }
            }
        }
        return Optional.empty();
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
