package io.tokenflow.agents.pipeline;

import org.springframework.stereotype.Component;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code regex_extract}: matches a pattern with RE2 (linear time: no backtracking, so no catastrophic patterns;
 * no back-references or look-around) against text: the data itself when it is a string, else {@code field} of the
 * object or of every row, the match written to {@code into} (default {@code <field>_match}). {@code group} picks a
 * group by number or name (default: 1 when the pattern has groups, else the whole match); {@code all: true} gives
 * every match as a list. Patterns are at most {@value #MAX_PATTERN} characters, texts {@value #MAX_TEXT}.
 */
@Component
class RegexExtractStep implements PipelineStep {

    static final int MAX_PATTERN = 1000;
    static final int MAX_TEXT = 1_000_000;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Override
    public String name() {
        return "regex_extract";
    }

    @Override
    public String usage() {
        return "{\"step\":\"regex_extract\",\"pattern\":\"(\\\\d+) USD\",\"field\":\"text\"?,\"into\":\"amount\"?,"
                + "\"group\":1?,\"all\":false?} extracts with an RE2 pattern (no back-references)";
    }

    @Override
    public JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException {
        Extraction extraction = new Extraction(compile(Rows.text(step, "pattern")), step.path("group"),
                step.path("all").asBoolean(false));
        if (data.isString()) {
            return extraction.from(data.stringValue());
        }
        String field = Rows.text(step, "field");
        String into = Rows.text(step, "into", field + "_match");
        if (data.isObject() && !data.path("items").isArray()) {
            return extracted(data, field, into, extraction);
        }
        ArrayNode rows = NODES.arrayNode();
        for (JsonNode row : Rows.of(data)) {
            rows.add(extracted(row, field, into, extraction));
        }
        return rows;
    }

    private static ObjectNode extracted(JsonNode row, String field, String into, Extraction extraction)
            throws PipelineException {
        ObjectNode copy = row.isObject() ? (ObjectNode) row.deepCopy() : NODES.objectNode();
        JsonNode text = Rows.field(row, field);
        copy.set(into, text.isString() ? extraction.from(text.stringValue()) : NODES.nullNode());
        return copy;
    }

    private static Pattern compile(String pattern) throws PipelineException {
        if (pattern.length() > MAX_PATTERN) {
            throw new PipelineException("Expected a pattern of at most " + MAX_PATTERN + " characters, but it has "
                    + pattern.length());
        }
        try {
            return Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new PipelineException("Expected an RE2 pattern (no back-references or look-around), but: "
                    + e.getMessage());
        }
    }

    /** One compiled extraction: which group, and whether every match or the first. */
    private record Extraction(Pattern pattern, JsonNode group, boolean all) {

        JsonNode from(String text) throws PipelineException {
            if (text.length() > MAX_TEXT) {
                throw new PipelineException("Expected texts of at most " + MAX_TEXT + " characters, but one has "
                        + text.length());
            }
            Matcher matcher = pattern.matcher(text);
            if (!all) {
                return matcher.find() ? NODES.stringNode(groupOf(matcher)) : NODES.nullNode();
            }
            ArrayNode matches = NODES.arrayNode();
            while (matcher.find()) {
                matches.add(groupOf(matcher));
            }
            return matches;
        }

        private String groupOf(Matcher matcher) throws PipelineException {
            try {
                if (group.isString()) {
                    return matcher.group(group.stringValue());
                }
                int number = group.isIntegralNumber() ? group.intValue() : matcher.groupCount() > 0 ? 1 : 0;
                return matcher.group(number);
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new PipelineException("Expected \"group\" to name a group of the pattern (it has "
                        + matcher.groupCount() + "), but found " + group);
            }
        }
    }
}
