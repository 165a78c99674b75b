package io.tokenflow.workers.data;

import java.util.ArrayList;
import java.util.List;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import io.tokenflow.workers.cel.CelEngine;
import tools.jackson.databind.JsonNode;

/**
 * {@code aggregate}: groups the items of {@code config.list} (default {@code input.items}) by the {@code group_by}
 * fields and computes {@code aggregations} (count, sum, avg, min, max) per group.
 */
@Component
public class AggregateTaskHandler implements TaskHandler {

    private final CelEngine cel;

    public AggregateTaskHandler(CelEngine cel) {
        this.cel = cel;
    }

    @Override
    public String type() {
        return "aggregate";
    }

    /** Bounded CEL over the input: nothing but the result. */
    @Override
    public boolean sideEffectFree(Task task) {
        return true;
    }

    @Override
    public TaskResult execute(Task task) {
        try {
            GroupAggregator aggregator = new GroupAggregator(groupBy(task.config().path("group_by")),
                    Aggregation.parseAll(task.config().path("aggregations")));
            List<?> items = Expressions.list(cel, task.config(), Expressions.variables(task));
            return TaskResult.completed(aggregator.aggregate(items));
        } catch (DataTaskException e) {
            return e.toResult();
        }
    }

    private static List<String> groupBy(JsonNode groupBy) throws DataTaskException {
        if (groupBy.isMissingNode() || groupBy.isNull()) {
            return List.of();
        }
        if (!groupBy.isArray()) {
            throw DataTaskException.invalidConfig("Expected config.group_by to be a list of field names, but found "
                    + groupBy);
        }
        List<String> fields = new ArrayList<>(groupBy.size());
        for (JsonNode field : groupBy) {
            if (!field.isString() || field.stringValue().isBlank()) {
                throw DataTaskException.invalidConfig("Expected config.group_by to hold field names, but found "
                        + field);
            }
            fields.add(field.stringValue());
        }
        return fields;
    }
}
