package io.tokenflow.workers.cel;

import java.util.Map;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.cel.common.types.SimpleType;
import io.tokenflow.engine.cel.CelExpressionException;
import io.tokenflow.engine.cel.CelExpressions;
import io.tokenflow.engine.cel.CelLimits;
import io.tokenflow.engine.cel.CelProgram;
import io.tokenflow.workers.WorkerSettings;

/**
 * The data workers' CEL: expressions over the variables {@code input}, {@code item} (any value) and {@code token}
 * (the token id), compiled once and evaluated within the limits of {@code tokenflow.workers.cel}.
 */
@Component
public class CelEngine {

    private final CelExpressions expressions;

    @Autowired
    public CelEngine(WorkerSettings settings) {
        this(settings.cel());
    }

    public CelEngine(WorkerSettings.Cel limits) {
        this.expressions = new CelExpressions(new CelLimits(limits.deadline(), limits.maxIterations(),
                limits.cacheSize()), Map.of("input", SimpleType.DYN, "item", SimpleType.DYN, "token", SimpleType.STRING));
    }

    /** The expression's value (Long, Double, String, Boolean, List, Map, …) over the given variables. */
    public Object evaluate(String expression, Map<String, ?> variables) throws ExpressionException {
        try {
            return expressions.evaluate(expression, variables);
        } catch (CelExpressionException e) {
            throw new ExpressionException(e.getMessage());
        }
    }

    /** The compiled program of an expression; compiling is done once per expression text. */
    public CelProgram compile(String expression) throws ExpressionException {
        try {
            return expressions.compile(expression);
        } catch (CelExpressionException e) {
            throw new ExpressionException(e.getMessage());
        }
    }
}
