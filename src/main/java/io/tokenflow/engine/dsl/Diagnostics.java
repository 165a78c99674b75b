package io.tokenflow.engine.dsl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects every problem of one compilation, in the order found. Not thread-safe; one per compilation. */
public final class Diagnostics {

    private final List<Diagnostic> items = new ArrayList<>();

    public void add(Diagnostic diagnostic) {
        items.add(diagnostic);
    }

    public void error(String code, String nodeId, String pointer, String message) {
        add(Diagnostic.error(code, nodeId, pointer, message));
    }

    public void warning(String code, String nodeId, String pointer, String message) {
        add(Diagnostic.warning(code, nodeId, pointer, message));
    }

    public boolean hasErrors() {
        return items.stream().anyMatch(Diagnostic::isError);
    }

    public List<Diagnostic> all() {
        return Collections.unmodifiableList(items);
    }

    public List<Diagnostic> snapshot() {
        return List.copyOf(items);
    }
}
