package io.tokenflow.agents.pipeline;

import tools.jackson.databind.JsonNode;

/** One primitive of {@code execute_pipeline}: turns the data of the previous step into the data of the next. */
interface PipelineStep {

    /** The name an agent writes in {@code "step"}, e.g. {@code table_sort}. */
    String name();

    /** One line for the tool description: what it does and its arguments. */
    String usage();

    /**
     * @param data the previous step's result (the pipeline's input for the first step)
     * @param step the step object as the agent wrote it, {@code step} included
     */
    JsonNode apply(JsonNode data, JsonNode step, StepContext context) throws PipelineException;
}
