package io.tokenflow.engine.types;

import java.util.Locale;

/** What the engine does with a node: hand it to a worker (task), to an LLM agent, or to a person. */
public enum NodeKind {
    TASK, AGENT, HUMAN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static NodeKind fromLabel(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
