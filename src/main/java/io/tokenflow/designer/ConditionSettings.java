package io.tokenflow.designer;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import io.tokenflow.engine.conditions.ConditionLimits;

/**
 * Limits of branch, loop and edge conditions, under {@code tokenflow.conditions}.
 *
 * @param deadline            the longest one condition (with all its members) may take to evaluate
 * @param maxIterations       CEL comprehension iterations in one evaluation (all comprehensions together)
 * @param maxExpressionLength the longest CEL expression or JSONPath query, in characters
 * @param maxParseDepth       the deepest nesting of a CEL expression
 * @param maxComprehensionDepth how deep CEL comprehensions (all, exists, map, filter) may nest
 * @param cacheSize           compiled expressions, queries and schemas kept per condition type
 * @param python              limits of python_sandbox conditions (only with the python build profile)
 */
@ConfigurationProperties("tokenflow.conditions")
public record ConditionSettings(@DefaultValue("100ms") Duration deadline, @DefaultValue("10000") int maxIterations,
                                @DefaultValue("10000") int maxExpressionLength, @DefaultValue("100") int maxParseDepth,
                                @DefaultValue("3") int maxComprehensionDepth, @DefaultValue("1000") int cacheSize,
                                @DefaultValue Python python) {

    /**
     * @param timeout     the longest a Python condition may run (a condition's timeout_ms may ask for less)
     * @param maxMemoryMb the most a Python condition may allocate (a condition's max_memory_mb may ask for less)
     */
    public record Python(@DefaultValue("1s") Duration timeout, @DefaultValue("50") int maxMemoryMb) {
    }

    public ConditionLimits limits() {
        Python py = python == null ? new Python(Duration.ofSeconds(1), 50) : python;
        return new ConditionLimits(deadline, maxIterations, maxExpressionLength, maxParseDepth, maxComprehensionDepth,
                cacheSize, py.timeout(), py.maxMemoryMb());
    }
}
