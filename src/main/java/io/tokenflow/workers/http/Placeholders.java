package io.tokenflow.workers.http;

import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.tokenflow.workers.Task;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fills {@code {{input.path.to.field}}} placeholders from a task ({@code {{token}}}, {@code {{run}}} and
 * {@code {{node}}} work too; array elements are {@code items.0} or {@code items[0]}). {@code ${…}} is left alone: it
 * belongs to the compiler's cross-node references. A placeholder naming nothing is an error, not an empty string.
 */
final class Placeholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Map<String, JsonNode> roots;

    Placeholders(Task task) {
        this.roots = Map.of("input", task.input(), "token", NODES.stringNode(task.token()),
                "run", NODES.stringNode(task.run().toString()), "node", NODES.stringNode(task.node()));
    }

    /** Text with each placeholder replaced by its value as text, passed through {@code encode}. */
    String interpolate(String text, String where, UnaryOperator<String> encode) throws HttpTaskException {
        Matcher matcher = PLACEHOLDER.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder result = new StringBuilder(text.length() + 32);
        int last = 0;
        do {
            result.append(text, last, matcher.start());
            result.append(encode.apply(asText(resolve(matcher.group(1), where))));
            last = matcher.end();
        } while (matcher.find());
        return result.append(text, last, text.length()).toString();
    }

    /**
     * A copy of a JSON template with placeholders filled: a string that is exactly one placeholder becomes the
     * value itself (object, number, …), other strings get the values interpolated as text.
     */
    JsonNode expand(JsonNode template, String where) throws HttpTaskException {
        if (template.isString()) {
            Matcher whole = PLACEHOLDER.matcher(template.stringValue());
            return whole.matches() ? resolve(whole.group(1), where)
                    : NODES.stringNode(interpolate(template.stringValue(), where, UnaryOperator.identity()));
        }
        if (template.isObject()) {
            ObjectNode copy = NODES.objectNode();
            for (Map.Entry<String, JsonNode> member : template.properties()) {
                copy.set(member.getKey(), expand(member.getValue(), where + "." + member.getKey()));
            }
            return copy;
        }
        if (template.isArray()) {
            ArrayNode copy = NODES.arrayNode(template.size());
            for (int i = 0; i < template.size(); i++) {
                copy.add(expand(template.get(i), where + "[" + i + "]"));
            }
            return copy;
        }
        return template;
    }

    JsonNode resolve(String path, String where) throws HttpTaskException {
        String[] parts = path.replace("[", ".").replace("]", "").split("\\.", -1);
        JsonNode current = roots.get(parts[0]);
        for (int i = 1; current != null && i < parts.length; i++) {
            current = current.isArray() && parts[i].matches("\\d{1,9}") ? current.get(Integer.parseInt(parts[i]))
                    : current.isObject() ? current.get(parts[i]) : null;
        }
        if (current == null || current.isMissingNode()) {
            throw HttpTaskException.permanent("template_error", "Expected {{" + path + "}} in " + where
                    + " to name a value (input.<path>, token, run or node), but there is none");
        }
        return current;
    }

    private static String asText(JsonNode value) {
        if (value.isString()) {
            return value.stringValue();
        }
        return value.isNull() ? "" : value.toString();
    }
}
