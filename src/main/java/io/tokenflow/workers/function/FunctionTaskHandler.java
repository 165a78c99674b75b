package io.tokenflow.workers.function;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

import org.springframework.stereotype.Component;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** Runs the {@link WorkflowFunction} named by {@code config.function}. */
@Component
public class FunctionTaskHandler implements TaskHandler {

    private final Map<String, WorkflowFunction> functions = new TreeMap<>();

    public FunctionTaskHandler(List<WorkflowFunction> functions) {
        for (WorkflowFunction function : functions) {
            WorkflowFunction previous = this.functions.putIfAbsent(function.name(), function);
            if (previous != null) {
                throw new IllegalStateException("Expected workflow function names to be unique, but '"
                        + function.name() + "' is declared by both " + previous.getClass().getName() + " and "
                        + function.getClass().getName());
            }
        }
    }

    @Override
    public String type() {
        return "function";
    }

    /** The named function's own answer; an unknown name only yields a failure, which has no side effects. */
    @Override
    public boolean sideEffectFree(Task task) {
        JsonNode name = task.config().path("function");
        WorkflowFunction function = name.isString() ? functions.get(name.asString()) : null;
        return function == null || function.sideEffectFree();
    }

    @Override
    public TaskResult execute(Task task) {
        JsonNode name = task.config().path("function");
        WorkflowFunction function = name.isString() ? functions.get(name.asString()) : null;
        if (function == null) {
            return TaskResult.permanent("unknown_function", "Expected config.function to name one of "
                    + functions.keySet() + ", but found " + (name.isMissingNode() ? "none" : name.toString()));
        }
        JsonNode args = task.config().path("args");
        FunctionCall call = new FunctionCall(task.input(),
                args.isMissingNode() || args.isNull() ? JsonNodeFactory.instance.objectNode() : args,
                task.token(), task.run(), task.node());
        return apply(function, call);
    }

    private static TaskResult apply(WorkflowFunction function, FunctionCall call) {
        String failure = "Expected function '" + function.name() + "' to succeed, but: ";
        try {
            JsonNode output = function.apply(call);
            return TaskResult.completed(output == null ? JsonNodeFactory.instance.nullNode() : output);
        } catch (FunctionFailedException e) {
            return new TaskResult.Failed(e.getMessage(), e.kind(), e.code());
        } catch (IOException | UncheckedIOException | TimeoutException e) {
            return TaskResult.transientFailure("function_error", failure + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return TaskResult.transientFailure("interrupted", failure + "it was interrupted");
        } catch (Exception e) {
            return TaskResult.permanent("function_error", failure + e);
        }
    }
}
