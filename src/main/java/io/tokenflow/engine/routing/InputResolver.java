package io.tokenflow.engine.routing;

import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resolves an input mapping: {@code ${workflow.input.<path>}} and {@code ${nodes.<id>.output[.<path>]}}. A string
 * that is exactly one placeholder becomes the referenced JSON value (any type); placeholders inside longer strings
 * are interpolated as text. Missing values resolve to JSON null (or "" inside text).
 */
public final class InputResolver {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{\\s*([^}]*?)\\s*}");
    private static final Pattern WHOLE = Pattern.compile("^\\$\\{\\s*([^}]*?)\\s*}$");
    // compiled once: String.matches and replaceAll compile their pattern on every call
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private InputResolver() {
    }

    /**
     * @param template      the node's input mapping
     * @param workflowInput the run's input
     * @param outputs       looks up a node's output by id ({@code null} when it has none)
     */
    public static JsonNode resolve(JsonNode template, JsonNode workflowInput, Function<String, JsonNode> outputs) {
        if (template.isString()) {
            return resolveString(template.asString(), workflowInput, outputs);
        }
        if (template.isObject()) {
            ObjectNode resolved = JSON.objectNode();
            template.properties().forEach(e -> resolved.set(e.getKey(), resolve(e.getValue(), workflowInput, outputs)));
            return resolved;
        }
        if (template.isArray()) {
            var resolved = JSON.arrayNode();
            template.forEach(item -> resolved.add(resolve(item, workflowInput, outputs)));
            return resolved;
        }
        return template;
    }

    private static JsonNode resolveString(String text, JsonNode workflowInput, Function<String, JsonNode> outputs) {
        Matcher whole = WHOLE.matcher(text);
        if (whole.matches()) {
            return lookup(whole.group(1), workflowInput, outputs);
        }
        Matcher matcher = PLACEHOLDER.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            JsonNode value = lookup(matcher.group(1), workflowInput, outputs);
            String replacement = value.isNull() || value.isMissingNode() ? "" : value.isString() ? value.asString()
                    : value.toString();
            matcher.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(result);
        return JSON.stringNode(result.toString());
    }

    /** The node ids whose outputs a mapping reads. */
    public static java.util.Set<String> referencedNodes(JsonNode template) {
        java.util.Set<String> nodes = new java.util.LinkedHashSet<>();
        collect(template, nodes);
        return nodes;
    }

    private static void collect(JsonNode template, java.util.Set<String> nodes) {
        if (template.isString()) {
            Matcher matcher = PLACEHOLDER.matcher(template.asString());
            while (matcher.find()) {
                Path path = Path.parse(matcher.group(1));
                if (path != null && path.node() != null) {
                    nodes.add(path.node());
                }
            }
        } else if (template.isContainer()) {
            template.forEach(child -> collect(child, nodes));
        }
    }

    private static JsonNode lookup(String expression, JsonNode workflowInput, Function<String, JsonNode> outputs) {
        Path path = Path.parse(expression);
        if (path == null) {
            return JSON.nullNode();
        }
        JsonNode root = path.node() == null ? workflowInput : outputs.apply(path.node());
        JsonNode value = root == null ? null : root;
        for (String segment : path.segments()) {
            if (value == null) {
                break;
            }
            value = DIGITS.matcher(segment).matches() && value.isArray() ? value.get(Integer.parseInt(segment))
                    : value.get(segment);
        }
        return value == null || value.isMissingNode() ? JSON.nullNode() : value;
    }

    /** A parsed reference: {@code node} is null for the workflow input. */
    private record Path(String node, java.util.List<String> segments) {
        static Path parse(String expression) {
            String normalised = INDEX.matcher(expression).replaceAll(".$1");
            String[] parts = normalised.split("\\.");
            if (parts.length >= 2 && parts[0].equals("workflow") && parts[1].equals("input")) {
                return new Path(null, java.util.List.of(parts).subList(2, parts.length));
            }
            if (parts.length >= 3 && parts[0].equals("nodes") && parts[2].equals("output")) {
                return new Path(parts[1], java.util.List.of(parts).subList(3, parts.length));
            }
            return null;
        }
    }

    /** Merged input of a join: each dependency's output under its id. */
    public static ObjectNode merge(Map<String, JsonNode> outputsByDependency) {
        ObjectNode merged = JSON.objectNode();
        outputsByDependency.forEach((dependency, output) -> merged.set(dependency, output == null ? JSON.nullNode() : output));
        return merged;
    }
}
