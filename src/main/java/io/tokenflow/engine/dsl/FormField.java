package io.tokenflow.engine.dsl;

import java.util.List;
import java.util.Objects;

/**
 * One field a human node's form shows the approver.
 *
 * @param pointer where the field is written in the DSL (for diagnostics)
 * @param name    unique within the form
 * @param label   what the approver reads, or {@code null} to show the name
 * @param source  a JSON Pointer into {@code {"input": <the run's input>, "payload": <what reached the node>}}
 * @param type    how the value is shown: {@link #TYPES}
 */
public record FormField(String pointer, String name, String label, String source, String type) {

    /** The field types, as the schema lists them. */
    public static final List<String> TYPES = List.of("text", "number", "boolean", "datetime",
            "url", "json");

    public FormField {
        Objects.requireNonNull(pointer, "pointer");
        type = type == null ? "text" : type;
    }
}
