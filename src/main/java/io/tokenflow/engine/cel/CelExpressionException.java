package io.tokenflow.engine.cel;

import java.util.List;

/**
 * A CEL expression that does not compile, fails while evaluating, or runs past its limits. The message names the
 * expression and says what went wrong; compile problems also come one by one with their position.
 */
public class CelExpressionException extends RuntimeException {

    private final List<CelProblem> problems;

    public CelExpressionException(String message, List<CelProblem> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    public CelExpressionException(String message) {
        this(message, List.of());
    }

    /** The compile problems with their position; empty for evaluation failures. */
    public List<CelProblem> problems() {
        return problems;
    }
}
