package io.tokenflow.engine.conditions;

import java.time.Duration;
import java.util.Objects;

import io.tokenflow.engine.cel.CelLimits;

/**
 * How far one condition may go, so that no condition can hang or exhaust the coordinator.
 *
 * @param deadline            the longest one condition (with all its members) may take to evaluate
 * @param maxIterations       CEL comprehension iterations allowed in one evaluation (all comprehensions together)
 * @param maxExpressionLength the longest CEL expression or JSONPath query accepted, in code points
 * @param maxParseDepth       the deepest nesting the CEL parser accepts
 * @param maxComprehensionDepth how deep CEL comprehensions ({@code all}, {@code exists}, {@code map}, …) may nest;
 *                            their cost multiplies with every level, so deeper ones are refused when compiling
 * @param cacheSize           compiled expressions, queries and schemas kept per condition type
 * @param pythonTimeout       the longest a {@code python_sandbox} condition may run (a condition may ask for less)
 * @param pythonMaxMemoryMb   the most a {@code python_sandbox} condition may allocate (a condition may ask for less)
 */
public record ConditionLimits(Duration deadline, int maxIterations, int maxExpressionLength, int maxParseDepth,
                              int maxComprehensionDepth, int cacheSize, Duration pythonTimeout, int pythonMaxMemoryMb) {

    public ConditionLimits {
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(pythonTimeout, "pythonTimeout");
        if (pythonTimeout.isNegative() || pythonTimeout.isZero() || pythonMaxMemoryMb <= 0) {
            throw new IllegalArgumentException("Expected a python timeout and memory limit > 0, but found "
                    + pythonTimeout + " and " + pythonMaxMemoryMb + " MB");
        }
        if (maxComprehensionDepth <= 0) {
            throw new IllegalArgumentException("Expected a max comprehension depth > 0, but found "
                    + maxComprehensionDepth);
        }
        cel(deadline, maxIterations, maxExpressionLength, maxParseDepth, cacheSize);
    }

    /**
     * 100 ms, 10,000 iterations, 10,000 code points, parse depth 100, comprehensions 3 deep, 1,000 cached; Python 1 s
     * and 50 MB (seed 003).
     */
    public static ConditionLimits defaults() {
        return new ConditionLimits(Duration.ofMillis(100), 10_000, 10_000, 100, 3, 1_000, Duration.ofSeconds(1), 50);
    }

    public ConditionLimits withDeadline(Duration newDeadline) {
        return new ConditionLimits(newDeadline, maxIterations, maxExpressionLength, maxParseDepth,
                maxComprehensionDepth, cacheSize, pythonTimeout, pythonMaxMemoryMb);
    }

    public ConditionLimits withMaxIterations(int iterations) {
        return new ConditionLimits(deadline, iterations, maxExpressionLength, maxParseDepth, maxComprehensionDepth,
                cacheSize, pythonTimeout, pythonMaxMemoryMb);
    }

    public ConditionLimits withMaxComprehensionDepth(int depth) {
        return new ConditionLimits(deadline, maxIterations, maxExpressionLength, maxParseDepth, depth, cacheSize,
                pythonTimeout, pythonMaxMemoryMb);
    }

    /** The same limits for CEL. */
    public CelLimits cel() {
        return cel(deadline, maxIterations, maxExpressionLength, maxParseDepth, cacheSize);
    }

    private static CelLimits cel(Duration deadline, int maxIterations, int maxExpressionLength, int maxParseDepth,
                                 int cacheSize) {
        return new CelLimits(deadline, maxIterations, maxExpressionLength, maxParseDepth, cacheSize);
    }
}
