package io.tokenflow.workers.data;

import java.util.Locale;

/** What an aggregation computes over the values of a field in each group. */
enum AggregateOp {
    COUNT, SUM, AVG, MIN, MAX;

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static AggregateOp fromLabel(String label) throws DataTaskException {
        for (AggregateOp op : values()) {
            if (op.label().equals(label)) {
                return op;
            }
        }
        throw DataTaskException.invalidConfig("Expected an aggregation op among count, sum, avg, min, max, "
                + "but found '" + label + "'");
    }
}
