package io.tokenflow.engine.ir;

import java.util.List;

/**
 * What a human node's approval shows the approver: its fields, in order.
 *
 * @param fields each {@code name}, {@code label} (the name when not written), {@code pointer} (into
 *               {@code {"input": <the run's input>, "payload": <what reached the node>}}) and {@code type}
 */
public record IrForm(List<Field> fields) {

    public IrForm {
        fields = List.copyOf(fields);
    }

    /** One field. */
    public record Field(String name, String label, String pointer, String type) {
    }
}
