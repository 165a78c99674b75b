package io.tokenflow.engine.conditions;

/** A condition that could not be decided; the message says why, in words a workflow author understands. */
public class ConditionEvaluationException extends RuntimeException {

    public ConditionEvaluationException(String message) {
        super(message);
    }

    public ConditionEvaluationException(String message, Throwable cause) {
        super(message, cause);
    }
}
