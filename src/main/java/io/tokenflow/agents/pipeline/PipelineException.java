package io.tokenflow.agents.pipeline;

/** A pipeline step could not do what it was asked; the message says what was expected and what was found. */
public class PipelineException extends Exception {

    public PipelineException(String message) {
        super(message, null, false, false);
    }
}
