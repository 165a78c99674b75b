package io.tokenflow.workers.data;

/**
 * The running value of one aggregation in one group. Sums stay integers while every value is one (and fits a long);
 * min and max compare numbers numerically and strings lexicographically, and refuse to mix them.
 */
final class Accumulator {

    private final Aggregation aggregation;
    private long count;
    private long longSum;
    private double doubleSum;
    private boolean integral = true;
    private Object extreme;

    Accumulator(Aggregation aggregation) {
        this.aggregation = aggregation;
    }

    /** Adds one item's value of the field ({@code null} when the item has none, which counts for nothing). */
    void add(Object value, int item) throws DataTaskException {
        AggregateOp op = aggregation.op();
        if (op == AggregateOp.COUNT) {
            count += aggregation.field() == null || value != null ? 1 : 0;
        } else if (value != null) {
            count++;
            if (op == AggregateOp.MIN || op == AggregateOp.MAX) {
                extreme = pick(value, item);
            } else {
                addNumber(number(value, item));
            }
        }
    }

    /** The result: a Long or Double, a String for min/max over text, or null for avg/min/max of no values. */
    Object result() {
        switch (aggregation.op()) {
            case COUNT:
                return count;
            case SUM:
                return integral ? (Object) longSum : (Object) doubleSum;
            case AVG:
                return count == 0 ? null : (integral ? (double) longSum : doubleSum) / count;
            default:
                return extreme;
        }
    }

    private void addNumber(Number number) {
        if (integral && number instanceof Long value) {
            try {
                longSum = Math.addExact(longSum, value);
                return;
            } catch (ArithmeticException overflow) {
                integral = false;
                doubleSum = longSum;
            }
        } else if (integral) {
            integral = false;
            doubleSum = longSum;
        }
        doubleSum += number.doubleValue();
    }

    private Object pick(Object value, int item) throws DataTaskException {
        if (extreme == null) {
            return comparable(value, item);
        }
        int order = compare(comparable(value, item), item);
        boolean better = aggregation.op() == AggregateOp.MIN ? order < 0 : order > 0;
        return better ? value : extreme;
    }

    private int compare(Object value, int item) throws DataTaskException {
        if (value instanceof Number number && extreme instanceof Number current) {
            return Double.compare(number.doubleValue(), current.doubleValue());
        }
        if (value instanceof String text && extreme instanceof String current) {
            return text.compareTo(current);
        }
        throw new DataTaskException("invalid_value", "Expected every '" + aggregation.field() + "' to be of one "
                + "kind (all numbers or all strings) for " + aggregation.op().label() + ", but item " + item
                + " mixes them");
    }

    private Object comparable(Object value, int item) throws DataTaskException {
        if (value instanceof Number || value instanceof String) {
            return value;
        }
        throw invalid("a number or a string", value, item);
    }

    private Number number(Object value, int item) throws DataTaskException {
        if (value instanceof Long || value instanceof Double) {
            return (Number) value;
        }
        throw invalid("a number", value, item);
    }

    private DataTaskException invalid(String expected, Object value, int item) {
        return new DataTaskException("invalid_value", "Expected '" + aggregation.field() + "' to be " + expected
                + " for " + aggregation.op().label() + ", but item " + item + " has " + value);
    }
}
