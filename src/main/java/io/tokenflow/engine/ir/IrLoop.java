package io.tokenflow.engine.ir;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.tokenflow.engine.conditions.CompiledCondition;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * Repetition: while {@code condition} holds (always, when null) go back to {@code loopBackTo}, at most
 * {@code maxIterations} times; then {@code breakPath}, or {@code timeoutPath} when the limit is reached.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record IrLoop(boolean enabled, CompiledCondition condition, int maxIterations, String loopBackTo,
                     List<String> breakPath, List<String> timeoutPath) {

    public IrLoop {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("Expected max_iterations >= 1, but it is " + maxIterations);
        }
        breakPath = List.copyOf(breakPath);
        timeoutPath = List.copyOf(timeoutPath);
    }
}
