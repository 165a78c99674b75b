package io.tokenflow.agents.llm;

/** A tool call the tool refused or failed; the message goes back to the model so it can correct itself. */
class ToolCallException extends Exception {

    ToolCallException(String message) {
        super(message, null, false, false);
    }
}
