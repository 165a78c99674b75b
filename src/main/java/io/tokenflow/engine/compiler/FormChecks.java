package io.tokenflow.engine.compiler;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import io.tokenflow.engine.dsl.Diagnostics;
import io.tokenflow.engine.dsl.FormField;
import io.tokenflow.engine.dsl.NodeDefinition;

/**
 * A human node's form: unique field names, and each pointer a JSON Pointer (RFC 6901) into the run's input
 * ({@code /input/…}) or what reached the node ({@code /payload/…}). The schema checks names and types.
 */
final class FormChecks {

    private static final Pattern POINTER = Pattern.compile("^/(input|payload)(/([^~/]|~[01])*)*$");

    private FormChecks() {
    }

    static void check(NodeDefinition node, Diagnostics diagnostics) {
        Map<String, Integer> names = new HashMap<>();
        var fields = node.human().form();
        for (int i = 0; i < fields.size(); i++) {
            FormField field = fields.get(i);
            Integer first = names.putIfAbsent(field.name(), i);
            if (first != null) {
                diagnostics.error("human-form", node.id(), field.pointer() + "/name", "Expected the form fields of "
                        + "human node '" + node.id() + "' to have unique names, but '" + field.name()
                        + "' is also the name of field " + first);
            }
            if (!POINTER.matcher(field.source()).matches()) {
                diagnostics.error("human-form", node.id(), field.pointer() + "/pointer", "Expected a JSON Pointer "
                        + "into the run's input (/input/…) or what reached the node (/payload/…), with ~ written "
                        + "~0 and / in a name ~1, but found '" + field.source() + "'");
            }
        }
    }
}
