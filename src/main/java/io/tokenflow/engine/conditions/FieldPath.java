package io.tokenflow.engine.conditions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;

/**
 * A path into a JSON value as a cross-node comparison side writes it: names separated by dots, each optionally
 * followed by array indexes, starting at a root name ({@code output.items[0].price}, {@code input.customer.id}).
 */
record FieldPath(String text, String root, List<Object> steps) {

    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z_$][A-Za-z0-9_$-]*)((?:\\[\\d{1,9}])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d{1,9})]");

    FieldPath {
        steps = List.copyOf(steps);
    }

    /** The path, or empty when {@code text} is not one. */
    static Optional<FieldPath> parse(String text) {
        List<Object> steps = new ArrayList<>();
        String root = null;
        for (String segment : text.split("\\.", -1)) {
            Matcher matcher = SEGMENT.matcher(segment);
            if (!matcher.matches()) {
                return Optional.empty();
            }
            if (root == null) {
                root = matcher.group(1);
            } else {
                steps.add(matcher.group(1));
            }
            Matcher index = INDEX.matcher(matcher.group(2));
            while (index.find()) {
                steps.add(Integer.parseInt(index.group(1)));
            }
        }
        return Optional.of(new FieldPath(text, root, steps));
    }

    /** The value at this path below the root value, or null when some step is missing. */
    JsonNode resolve(JsonNode rootValue) {
        JsonNode at = rootValue;
        for (Object step : steps) {
            at = step instanceof Integer index ? at.get(index) : at.get((String) step);
            if (at == null || at.isMissingNode()) {
                return null;
            }
        }
        return at;
    }
}
