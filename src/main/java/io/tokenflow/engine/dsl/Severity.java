package io.tokenflow.engine.dsl;

/** How bad a diagnostic is: errors stop compilation, warnings do not. */
public enum Severity {
    ERROR, WARNING;

    @com.fasterxml.jackson.annotation.JsonValue
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
