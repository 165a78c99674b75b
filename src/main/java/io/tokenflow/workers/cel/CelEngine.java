package io.tokenflow.workers.cel;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import io.tokenflow.workers.WorkerSettings;

/**
 * Compiles and evaluates CEL expressions over the variables {@code input}, {@code item} (any value) and
 * {@code token} (the token id). Programs are compiled once per expression text and kept in a bounded LRU cache
 * (failures too). An evaluation is bounded by the total comprehension iterations, the parser limits and a deadline;
 * CEL 0.14 has no cost limit, so the deadline is checked by an evaluation listener on every evaluated node.
 */
@Component
public class CelEngine {

    private static final int MAX_EXPRESSION_CODE_POINTS = 10_000;
    private static final int MAX_PARSE_DEPTH = 100;
    private static final String WARM_UP = "[1, 2].all(x, x > 0) && [1].map(x, double(x) * 2.0)[0] == 2.0 "
            + "&& {'a': input.a}.a == 1 && has(input.a) && 'a' + 'b' == 'ab' && size([1]) == 1";

    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final long deadlineNanos;
    private final Duration deadline;
    private final Map<String, Compiled> cache;

    @Autowired
    public CelEngine(WorkerSettings settings) {
        this(settings.cel());
    }

    public CelEngine(WorkerSettings.Cel limits) {
        CelOptions options = CelOptions.current().comprehensionMaxIterations(limits.maxIterations())
                .enableHeterogeneousNumericComparisons(true)
                .maxExpressionCodePointSize(MAX_EXPRESSION_CODE_POINTS).maxParseRecursionDepth(MAX_PARSE_DEPTH)
                .build();
        this.compiler = CelCompilerFactory.standardCelCompilerBuilder().setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addVar("input", SimpleType.DYN).addVar("item", SimpleType.DYN).addVar("token", SimpleType.STRING)
                .build();
        this.runtime = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(options).build();
        this.deadline = limits.deadline();
        this.deadlineNanos = limits.deadline().toNanos();
        this.cache = lruCache(limits.cacheSize());
        warmUp();
    }

    /** The expression's value (Long, Double, String, Boolean, List, Map, …) over the given variables. */
    public Object evaluate(String expression, Map<String, ?> variables) throws ExpressionException {
        CelRuntime.Program program = compile(expression);
        long giveUpAt = System.nanoTime() + deadlineNanos;
        try {
            return program.trace(variables, (expr, value) -> {
                if (System.nanoTime() - giveUpAt > 0) {
                    throw new DeadlineExceeded();
                }
            });
        } catch (CelEvaluationException | DeadlineExceeded e) {
            throw new ExpressionException("Expected CEL expression '" + expression + "' to evaluate, but "
                    + (causedByDeadline(e) ? "it ran longer than " + deadline.toMillis() + " ms" : e.getMessage()));
        }
    }

    /** The compiled program of an expression; compiling is done once per expression text. */
    public CelRuntime.Program compile(String expression) throws ExpressionException {
        Compiled compiled;
        synchronized (cache) {
            compiled = cache.get(expression);
        }
        if (compiled == null) {
            compiled = doCompile(expression);
            synchronized (cache) {
                cache.put(expression, compiled);
            }
        }
        if (compiled.error() != null) {
            throw new ExpressionException(compiled.error());
        }
        return compiled.program();
    }

    /** Loads the interpreter's classes now, so the first real evaluation is not charged for it against its deadline. */
    private void warmUp() {
        try {
            runtime.createProgram(compiler.compile(WARM_UP).getAst())
                    .trace(Map.of("input", Map.of("a", 1L)), (expr, value) -> { });
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException("Expected CEL to evaluate " + WARM_UP + ", but: " + e.getMessage(), e);
        }
    }

    private Compiled doCompile(String expression) {
        try {
            return new Compiled(runtime.createProgram(compiler.compile(expression).getAst()), null);
        } catch (CelValidationException | CelEvaluationException | RuntimeException e) {
            return new Compiled(null, "Expected '" + expression + "' to be a valid CEL expression, but: "
                    + e.getMessage());
        }
    }

    private static boolean causedByDeadline(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof DeadlineExceeded) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, Compiled> lruCache(int size) {
        return new LinkedHashMap<>(Math.min(size, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
                return size() > size;
            }
        };
    }

    private record Compiled(CelRuntime.Program program, String error) {
    }

    /** Thrown from the evaluation listener once the deadline has passed; CEL wraps it. */
    private static final class DeadlineExceeded extends RuntimeException {
        DeadlineExceeded() {
            super("deadline exceeded", null, false, false);
        }
    }
}
