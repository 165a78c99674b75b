package io.tokenflow.engine.cel;

/**
 * One compile problem of a CEL expression.
 *
 * @param line   1-based line of the expression, 0 when unknown
 * @param column 1-based column (in code points), 0 when unknown
 */
public record CelProblem(int line, int column, String message) {

    /** "at line 1, column 9: Syntax error: …" (without the position when it is unknown). */
    public String describe() {
        return line <= 0 ? message : "at line " + line + ", column " + column + ": " + message;
    }
}
