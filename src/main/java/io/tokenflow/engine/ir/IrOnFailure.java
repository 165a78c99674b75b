package io.tokenflow.engine.ir;

import java.util.List;

import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * What a node's failure does once no retry is left: fail the run ({@code fail_run}, also what a node without
 * {@code on_failure} does); send the error on to {@code nextNodes} ({@code path}, like Step Functions' {@code Catch}):
 * the node ends {@code FAILED}, its output for later nodes is {@code {"error": {...}}}, and the run goes on; or park
 * the task in the dead-letter queue ({@code dlq}): the run waits until the entry is reprocessed or discarded.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IrOnFailure(String action, List<String> nextNodes) {

    public static final String FAIL_RUN = "fail_run";
    public static final String PATH = "path";
    public static final String DLQ = "dlq";

    public IrOnFailure {
        nextNodes = List.copyOf(nextNodes);
    }

    /** Whether a failure goes on to {@link #nextNodes} instead of failing the run. */
    public boolean catches() {
        return PATH.equals(action);
    }

    /** Whether a failed task parks in the dead-letter queue instead of failing the run. */
    public boolean parks() {
        return DLQ.equals(action);
    }
}
