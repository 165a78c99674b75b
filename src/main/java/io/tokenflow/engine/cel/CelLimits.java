package io.tokenflow.engine.cel;

import java.time.Duration;
import java.util.Objects;

/**
 * How far one CEL expression may go. CEL 0.14 has no cost limit, so an evaluation is bounded by the comprehension
 * iterations of all its comprehensions together and by a deadline checked on every evaluated node; parsing is bounded
 * by the expression's length and nesting.
 *
 * @param deadline               the longest one evaluation may run
 * @param maxIterations          comprehension iterations allowed in one evaluation (all comprehensions together)
 * @param maxExpressionCodePoints the longest expression accepted
 * @param maxParseDepth          the deepest nesting the parser accepts
 * @param cacheSize              compiled expressions kept
 */
public record CelLimits(Duration deadline, int maxIterations, int maxExpressionCodePoints, int maxParseDepth,
                        int cacheSize) {

    public static final int DEFAULT_MAX_EXPRESSION_CODE_POINTS = 10_000;
    public static final int DEFAULT_MAX_PARSE_DEPTH = 100;

    public CelLimits {
        Objects.requireNonNull(deadline, "deadline");
        require(!deadline.isNegative() && !deadline.isZero(), "a deadline > 0", deadline);
        require(maxIterations > 0, "max iterations > 0", maxIterations);
        require(maxExpressionCodePoints > 0, "a max expression length > 0", maxExpressionCodePoints);
        require(maxParseDepth > 0, "a max parse depth > 0", maxParseDepth);
        require(cacheSize > 0, "a cache size > 0", cacheSize);
    }

    public CelLimits(Duration deadline, int maxIterations, int cacheSize) {
        this(deadline, maxIterations, DEFAULT_MAX_EXPRESSION_CODE_POINTS, DEFAULT_MAX_PARSE_DEPTH, cacheSize);
    }

    private static void require(boolean condition, String expectation, Object actual) {
        if (!condition) {
            throw new IllegalArgumentException("Expected " + expectation + ", but found " + actual);
        }
    }
}
