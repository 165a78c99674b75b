package io.tokenflow.agents.pipeline;

import java.util.UUID;

import io.tokenflow.workers.Task;
import io.tokenflow.workers.TaskHandler;
import io.tokenflow.workers.TaskResult;
import tools.jackson.databind.JsonNode;

/**
 * Runs a built-in data worker ({@code filter}, {@code aggregate}) in-process on a table, so the primitives share their
 * CEL limits and semantics. Their config errors name {@code config.*}: here, that is the step's arguments.
 */
final class DataWorkerCall {

    private static final UUID NO_RUN = new UUID(0, 0);

    private DataWorkerCall() {
    }

    static JsonNode run(TaskHandler worker, JsonNode input, JsonNode config) throws PipelineException {
        Task task = new Task("execute_pipeline", NO_RUN, "execute_pipeline", worker.type(), 0, 1, input, config, null,
                null);
        TaskResult result = worker.execute(task);
        if (result instanceof TaskResult.Completed completed) {
            return completed.output();
        }
        throw new PipelineException(((TaskResult.Failed) result).message().replace("config.", ""));
    }
}
