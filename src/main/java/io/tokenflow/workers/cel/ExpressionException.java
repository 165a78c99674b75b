package io.tokenflow.workers.cel;

/** A CEL expression that does not compile, fails while evaluating, or runs past its limits. */
public class ExpressionException extends Exception {

    public ExpressionException(String message) {
        super(message);
    }
}
