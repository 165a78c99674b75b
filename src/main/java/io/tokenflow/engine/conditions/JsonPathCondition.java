package io.tokenflow.engine.conditions;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.JsonPathException;
import com.jayway.jsonpath.Option;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.mapper.Jackson3MappingProvider;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code {"type": "jsonpath", "query": "$.transactions[*].amount", "operator": "sum_gt", "value": 10000}}: a query in
 * the seed's JSONPath syntax (Jayway: filters, {@code .length()}, {@code .sum()}, …; not RFC 9535) over the output (or
 * {@code source}: context / input), compared by {@link Comparison}. A definite path that selects nothing gives no
 * value; an indefinite one a list. A trailing {@code .length()} counts what the path before it selects, as the seed
 * means it ({@code $.customers[?(@.tier == 'enterprise')].length()} is the number of such customers; Jayway alone
 * would measure each of them). Regex filters ({@code =~}) are refused: java.util.regex can backtrack without
 * bound; the {@code matches} operator (RE2, linear time) takes their place.
 */
final class JsonPathCondition implements ConditionType {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String LENGTH = ".length()";
    private static final Jackson3MappingProvider MAPPING = new Jackson3MappingProvider(MAPPER);

    private final ConditionCache<JsonPath> paths;
    private final int maxLength;

    JsonPathCondition(ConditionLimits limits) {
        this.paths = new ConditionCache<>(limits.cacheSize());
        this.maxLength = limits.maxExpressionLength();
        warmUp();
    }

    @Override
    public String name() {
        return "jsonpath";
    }

    @Override
    public boolean check(JsonNode condition, ConditionCheck check) {
        boolean valid = checkQuery(condition.path("query"), check);
        var comparison = Comparison.parse(condition.path("operator").asString(""), true);
        if (comparison.isEmpty()) {
            valid = check.error("/operator", "Expected operator to be one of " + Comparison.known(true) + ", but it is "
                    + condition.path("operator"));
        } else {
            String problem = comparison.get().valueProblem(condition.get("value"));
            valid &= problem == null || check.error("/value", problem);
        }
        return Subject.check(condition, "", check) && valid;
    }

    @Override
    public void prepare(JsonNode condition, ConditionEngine engine) {
        String query = condition.path("query").asString();
        compiled(query);
        if (query.endsWith(LENGTH) && query.length() > LENGTH.length() + 1) {
            compiled(query.substring(0, query.length() - LENGTH.length()));
        }
    }

    @Override
    public boolean evaluate(JsonNode condition, ConditionEvaluation evaluation) {
        String query = condition.path("query").asString();
        Comparison comparison = Comparison.parse(condition.path("operator").asString(), true).orElseThrow(() ->
                new ConditionEvaluationException("Expected a known operator, but it is " + condition.get("operator")));
        JsonNode selected = select(query, Subject.resolve(condition, evaluation), evaluation.deadline());
        return comparison.test(selected, condition.get("value"), "JSONPath " + query + " on "
                + Subject.describe(condition));
    }

    /** Loads JSONPath's classes now, so the first real evaluation is not charged for it against its deadline. */
    private void warmUp() {
        JsonNode document = MAPPER.readTree("{\"a\": [{\"b\": 1}, {\"b\": 2}]}");
        select("$.a[?(@.b > 1)].length()", document, Deadline.after(java.time.Duration.ofMinutes(1)));
        select("$..b", document, Deadline.after(java.time.Duration.ofMinutes(1)));
    }

    /** What the query selects in {@code document}, or null when a definite path selects nothing. */
    private JsonNode select(String query, JsonNode document, Deadline deadline) {
        Configuration configuration = configuration(deadline);
        try {
            if (query.endsWith(LENGTH) && query.length() > LENGTH.length() + 1) {
                return length(query.substring(0, query.length() - LENGTH.length()), document, configuration);
            }
            return tree(compiled(query).read(document, configuration));
        } catch (PathNotFoundException e) {
            return null;
        } catch (JsonPathException e) {
            throw new ConditionEvaluationException("Expected JSONPath " + query + " to evaluate, but " + e.getMessage(),
                    e);
        }
    }

    /** Jackson 3 trees, checked against {@code deadline} on every step. */
    static Configuration configuration(Deadline deadline, Option... options) {
        return Configuration.builder().jsonProvider(new BoundedJsonProvider(MAPPER, deadline)).mappingProvider(MAPPING)
                .options(options).build();
    }

    /** How many values an indefinite path selects; for a definite one, the size of the value it selects. */
    private JsonNode length(String path, JsonNode document, Configuration configuration) {
        JsonPath compiled = compiled(path);
        JsonNode selected = tree(compiled.read(document, configuration));
        int length;
        if (!compiled.isDefinite() || selected.isContainer()) {
            length = selected.size();
        } else if (selected.isString()) {
            length = selected.asString().length();
        } else {
            throw new ConditionEvaluationException("Expected " + path + " to select an array, object or text to "
                    + "measure with length(), but it selects " + selected);
        }
        return MAPPER.getNodeFactory().numberNode(length);
    }

    private static JsonNode tree(Object result) {
        return result instanceof JsonNode node ? node : MAPPER.valueToTree(result);
    }

    private JsonPath compiled(String query) {
        return paths.get(query, JsonPath::compile);
    }

    private boolean checkQuery(JsonNode query, ConditionCheck check) {
        if (!query.isString() || !query.asString().startsWith("$")) {
            return check.error("/query", "Expected a JSONPath query starting with $ (e.g. $.items[*].price), but "
                    + "found " + query);
        }
        String text = query.asString();
        if (text.codePointCount(0, text.length()) > maxLength) {
            return check.error("/query", "Expected a query of at most " + maxLength + " characters, but it has "
                    + text.codePointCount(0, text.length()));
        }
        if (hasRegexFilter(text)) {
            return check.error("/query", "Expected a query without regex filters (=~), which could backtrack without "
                    + "bound, but it has one; select the text and use operator \"matches\" (RE2, linear time) instead");
        }
        try {
            compiled(text);
            return true;
        } catch (InvalidPathException e) {
            return check.error("/query", "Expected a valid JSONPath query, but " + e.getMessage());
        }
    }

    /** Whether {@code =~} occurs outside quoted text. */
    static boolean hasRegexFilter(String query) {
        char quote = 0;
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '=' && i + 1 < query.length() && query.charAt(i + 1) == '~') {
                return true;
            }
        }
        return false;
    }
}
