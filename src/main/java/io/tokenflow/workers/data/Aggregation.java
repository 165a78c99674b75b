package io.tokenflow.workers.data;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * One entry of {@code config.aggregations}.
 *
 * @param field a field of each item, dotted for nested ones; {@code null} only for {@code count} (count every item)
 * @param as    the output member; default {@code count}, or {@code <op>_<field>} (dots become underscores)
 */
record Aggregation(AggregateOp op, String field, String as) {

    static List<Aggregation> parseAll(JsonNode aggregations) throws DataTaskException {
        if (!aggregations.isArray() || aggregations.isEmpty()) {
            throw DataTaskException.invalidConfig("Expected config.aggregations to be a non-empty list of "
                    + "{op, field, as}, but found " + (aggregations.isMissingNode() ? "none" : aggregations));
        }
        List<Aggregation> parsed = new ArrayList<>(aggregations.size());
        for (JsonNode aggregation : aggregations) {
            parsed.add(parse(aggregation));
        }
        return parsed;
    }

    static Aggregation parse(JsonNode aggregation) throws DataTaskException {
        AggregateOp op = AggregateOp.fromLabel(aggregation.path("op").isString()
                ? aggregation.path("op").stringValue() : String.valueOf(aggregation.path("op")));
        String field = text(aggregation, "field");
        if (field == null && op != AggregateOp.COUNT) {
            throw DataTaskException.invalidConfig("Expected a field for the " + op.label() + " aggregation "
                    + aggregation + ", but there is none");
        }
        String as = text(aggregation, "as");
        if (as == null) {
            as = field == null ? op.label() : op.label() + "_" + field.replace('.', '_');
        }
        return new Aggregation(op, field, as);
    }

    private static String text(JsonNode aggregation, String member) throws DataTaskException {
        JsonNode value = aggregation.path(member);
        if (value.isMissingNode() || value.isNull()) {
            return null;
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw DataTaskException.invalidConfig("Expected '" + member + "' of aggregation " + aggregation
                    + " to be a non-empty string, but found " + value);
        }
        return value.stringValue();
    }
}
