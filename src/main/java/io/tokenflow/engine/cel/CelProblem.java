package io.tokenflow.engine.cel;

/**
 * One compile problem of a CEL expression.
 *
 * @param line    1-based line of the expression, 0 when unknown
 * @param column  1-based column (in code points), 0 when unknown
 * @param message what is wrong: in words that already name the column ({@code worded}), or as cel-java said it
 * @param worded  whether the message is {@link CelWording}'s and names its own position
 */
public record CelProblem(int line, int column, String message, boolean worded) {

    public CelProblem(int line, int column, String message) {
        this(line, column, message, false);
    }

    /**
     * "an expression is missing after '>' at column 15" (with "on line 2" when the expression has several), or, for
     * a message cel-java gave, "at line 1, column 9: …" (without the position when it is unknown).
     */
    public String describe() {
        if (worded) {
            return line > 1 ? message + " on line " + line : message;
        }
        return line <= 0 ? message : "at line " + line + ", column " + column + ": " + message;
    }
}
