package io.tokenflow.engine.conditions;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

/**
 * The operator of a jsonpath condition or a cross-node comparison: compares a selected value (the left side) with a
 * value (the right side). jsonpath conditions may aggregate first: {@code sum_gt}, {@code count_lte}, … A missing
 * left side counts as {@code null}, except for {@code exists}/{@code not_exists} and the aggregates (no values).
 */
record Comparison(String text, Aggregate aggregate, Operator operator) {

    enum Operator {
        EQ("==", "eq"), NE("!=", "ne"), GT(">", "gt"), GE(">=", "gte"), LT("<", "lt"), LE("<=", "lte"),
        IN("in", null), NOT_IN("not_in", null), CONTAINS("contains", null), MATCHES("matches", null),
        EXISTS("exists", null), NOT_EXISTS("not_exists", null);

        final String symbol;
        final String suffix;

        Operator(String symbol, String suffix) {
            this.symbol = symbol;
            this.suffix = suffix;
        }

        boolean ordered() {
            return this == GT || this == GE || this == LT || this == LE;
        }

        boolean needsValue() {
            return this != EXISTS && this != NOT_EXISTS;
        }
    }

    enum Aggregate { SUM, MIN, MAX, AVG, COUNT }

    /** The comparison an operator text stands for; aggregates only when {@code aggregates} is true. */
    static Optional<Comparison> parse(String text, boolean aggregates) {
        for (Operator operator : Operator.values()) {
            if (operator.symbol.equals(text)) {
                return Optional.of(new Comparison(text, null, operator));
            }
        }
        int underscore = text.indexOf('_');
        if (!aggregates || underscore < 0) {
            return Optional.empty();
        }
        String suffix = text.substring(underscore + 1);
        Optional<Aggregate> aggregate = Arrays.stream(Aggregate.values())
                .filter(a -> a.name().toLowerCase(Locale.ROOT).equals(text.substring(0, underscore))).findFirst();
        Optional<Operator> operator = Arrays.stream(Operator.values()).filter(o -> suffix.equals(o.suffix)).findFirst();
        return aggregate.isPresent() && operator.isPresent()
                ? Optional.of(new Comparison(text, aggregate.get(), operator.get())) : Optional.empty();
    }

    /** Every operator text, for error messages. */
    static String known(boolean aggregates) {
        List<String> names = new ArrayList<>();
        Arrays.stream(Operator.values()).forEach(o -> names.add(o.symbol));
        if (aggregates) {
            names.add("sum_|min_|max_|avg_|count_ followed by gt, gte, lt, lte, eq or ne");
        }
        return String.join(", ", names);
    }

    /** What is wrong with {@code value} (null when absent) as this comparison's right side, or null. */
    String valueProblem(JsonNode value) {
        if (!operator.needsValue()) {
            return null;
        }
        if (value == null) {
            return "Expected a value to compare with (operator " + text + "), but there is none";
        }
        if (aggregate != null || operator.ordered()) {
            boolean fits = value.isNumber() || aggregate == null && value.isString();
            return fits ? null : "Expected a " + (aggregate != null ? "number" : "number or text") + " for operator "
                    + text + ", but the value is " + value;
        }
        if (operator == Operator.IN || operator == Operator.NOT_IN) {
            return value.isArray() ? null : "Expected an array of values for operator " + text + ", but the value is "
                    + value;
        }
        if (operator == Operator.MATCHES) {
            return regexProblem(value);
        }
        return null;
    }

    /**
     * @param left  the selected value; null when nothing was selected
     * @param what  names the left side in error messages
     * @throws ConditionEvaluationException when the values cannot be compared this way
     */
    boolean test(JsonNode left, JsonNode right, String what) {
        if (aggregate != null) {
            return compare(aggregate(left, what), right, what);
        }
        return switch (operator) {
            case EXISTS -> left != null && !left.isNull() && !(left.isArray() && left.isEmpty());
            case NOT_EXISTS -> left == null || left.isNull() || left.isArray() && left.isEmpty();
            default -> compare(left == null ? NullNode.getInstance() : left, right, what);
        };
    }

    private boolean compare(JsonNode left, JsonNode right, String what) {
        return switch (operator) {
            case EQ -> JsonValues.equal(left, right);
            case NE -> !JsonValues.equal(left, right);
            case IN -> contains(right, left);
            case NOT_IN -> !contains(right, left);
            case CONTAINS -> left.isString() && right.isString() ? left.asString().contains(right.asString())
                    : left.isArray() && contains(left, right);
            case MATCHES -> left.isString() && Pattern.compile(right.asString()).matcher(left.asString()).find();
            default -> ordered(JsonValues.order(left, right, operator.symbol, what));
        };
    }

    private boolean ordered(int order) {
        return switch (operator) {
            case GT -> order > 0;
            case GE -> order >= 0;
            case LT -> order < 0;
            default -> order <= 0;
        };
    }

    private static boolean contains(JsonNode array, JsonNode value) {
        for (JsonNode element : array) {
            if (JsonValues.equal(element, value)) {
                return true;
            }
        }
        return false;
    }

    private JsonNode aggregate(JsonNode left, String what) {
        List<JsonNode> values = new ArrayList<>();
        if (left != null && left.isArray()) {
            left.forEach(values::add);
        } else if (left != null && !left.isNull()) {
            values.add(left);
        }
        if (aggregate == Aggregate.COUNT) {
            return JsonValues.number(BigDecimal.valueOf(values.size()));
        }
        List<BigDecimal> numbers = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isNumber()) {
                throw new ConditionEvaluationException("Expected " + what + " to select numbers for " + text
                        + ", but it selects " + value);
            }
            numbers.add(value.decimalValue());
        }
        if (numbers.isEmpty() && aggregate != Aggregate.SUM) {
            throw new ConditionEvaluationException("Expected " + what + " to select numbers for " + text
                    + ", but it selects none");
        }
        BigDecimal sum = numbers.stream().reduce(BigDecimal.ZERO, BigDecimal::add);
        return JsonValues.number(switch (aggregate) {
            case MIN -> numbers.stream().min(BigDecimal::compareTo).orElseThrow();
            case MAX -> numbers.stream().max(BigDecimal::compareTo).orElseThrow();
            case AVG -> sum.divide(BigDecimal.valueOf(numbers.size()), MathContext.DECIMAL64);
            default -> sum;
        });
    }

    private static String regexProblem(JsonNode value) {
        if (!value.isString()) {
            return "Expected a regular expression (text) for operator matches, but the value is " + value;
        }
        try {
            Pattern.compile(value.asString());
            return null;
        } catch (PatternSyntaxException e) {
            return "Expected a regular expression in RE2 syntax for operator matches, but " + e.getMessage();
        }
    }
}
