package io.tokenflow.engine.cel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelContainer;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;

/**
 * Compiles (parses and type-checks) and evaluates CEL expressions over declared variables, within
 * {@link CelLimits}. Programs are compiled once per expression text and kept in a bounded LRU cache (failures too).
 * Thread-safe.
 */
public final class CelExpressions {

    /** Regular expressions of {@code matches()} run on RE2J (linear time); this bounds the size of their program. */
    private static final int MAX_REGEX_PROGRAM_SIZE = 2_000;
    private static final String WARM_UP = "[1, 2].all(x, x > 0) && [1].map(x, double(x) * 2.0)[0] == 2.0 "
            + "&& {'a': 1}.a == 1 && has({'a': 1}.a) && 'a' + 'b' == 'ab' && size([1]) == 1";

    private final CelCompiler compiler;
    private final CelRuntime runtime;
    private final CelLimits limits;
    private final Map<String, Compiled> cache;
    private final Set<String> variables;

    /**
     * @param variables the variables expressions may use, with their types ({@code SimpleType.DYN} for JSON values)
     * @param container the namespace names are resolved in ({@code ""} for none)
     */
    public CelExpressions(CelLimits limits, Map<String, CelType> variables, String container) {
        CelOptions options = CelOptions.current().comprehensionMaxIterations(limits.maxIterations())
                .enableHeterogeneousNumericComparisons(true)
                .maxExpressionCodePointSize(limits.maxExpressionCodePoints())
                .maxParseRecursionDepth(limits.maxParseDepth())
                .maxRegexProgramSize(MAX_REGEX_PROGRAM_SIZE)
                .build();
        var builder = CelCompilerFactory.standardCelCompilerBuilder().setOptions(options)
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS).setContainer(CelContainer.ofName(container));
        variables.forEach(builder::addVar);
        this.compiler = builder.build();
        this.runtime = CelRuntimeFactory.standardCelRuntimeBuilder().setOptions(options).build();
        this.limits = limits;
        this.cache = lruCache(limits.cacheSize());
        this.variables = Set.copyOf(variables.keySet());
        warmUp();
    }

    public CelExpressions(CelLimits limits, Map<String, CelType> variables) {
        this(limits, variables, "");
    }

    public CelLimits limits() {
        return limits;
    }

    /** The compiled program of an expression; compiling is done once per expression text. */
    public CelProgram compile(String expression) {
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
            throw compiled.error();
        }
        return compiled.program();
    }

    /** The expression's value (Long, Double, String, Boolean, List, Map, …) within this environment's deadline. */
    public Object evaluate(String expression, Map<String, ?> variables) {
        return evaluate(compile(expression), variables, System.nanoTime() + limits.deadline().toNanos());
    }

    /**
     * Evaluates a program until {@code giveUpAtNanos} ({@link System#nanoTime()} scale) at the latest.
     *
     * @throws CelExpressionException when evaluation fails, exceeds the iteration budget or passes the deadline
     */
    public Object evaluate(CelProgram program, Map<String, ?> variables, long giveUpAtNanos) {
        try {
            return program.program().trace(variables, (expr, value) -> {
                if (System.nanoTime() - giveUpAtNanos > 0) {
                    throw new DeadlineExceeded();
                }
            });
        } catch (CelEvaluationException | DeadlineExceeded e) {
            throw new CelExpressionException("Expected CEL expression '" + program.expression() + "' to evaluate, but "
                    + (causedByDeadline(e) ? deadlineText() : e.getMessage()));
        } catch (RuntimeException e) {
            throw new CelExpressionException("Expected CEL expression '" + program.expression() + "' to evaluate, but "
                    + (causedByDeadline(e) ? deadlineText() : "it failed: " + e));
        }
    }

    private String deadlineText() {
        return "it ran longer than " + limits.deadline().toMillis() + " ms";
    }

    /** Loads the interpreter's classes now, so the first real evaluation is not charged for it against its deadline. */
    private void warmUp() {
        try {
            runtime.createProgram(compiler.compile(WARM_UP).getAst()).trace(Map.of(), (expr, value) -> { });
        } catch (CelValidationException | CelEvaluationException e) {
            throw new IllegalStateException("Expected CEL to evaluate " + WARM_UP + ", but: " + e.getMessage(), e);
        }
    }

    private Compiled doCompile(String expression) {
        try {
            CelValidationResult result = compiler.compile(expression);
            if (result.hasError()) {
                return failed(expression, problems(expression, result.getErrors()));
            }
            CelAbstractSyntaxTree ast = result.getAst();
            return new Compiled(new CelProgram(expression, ast, runtime.createProgram(ast)), null);
        } catch (CelValidationException e) {
            return failed(expression, problems(expression, e.getErrors()));
        } catch (CelEvaluationException | RuntimeException | StackOverflowError e) {
            return failed(expression, List.of(new CelProblem(0, 0, String.valueOf(e.getMessage()))));
        }
    }

    private static Compiled failed(String expression, List<CelProblem> problems) {
        String described = String.join("; ", problems.stream().map(CelProblem::describe).toList());
        return new Compiled(null, new CelExpressionException("Expected '" + expression
                + "' to be a valid CEL expression, but " + described, problems));
    }

    private List<CelProblem> problems(String expression, List<CelIssue> issues) {
        CelWording wording = new CelWording(expression, variables);
        return CelWording.withoutFollowOnErrors(issues.stream().map(CelExpressions::problem).toList()).stream()
                .map(wording::worded).toList();
    }

    private static CelProblem problem(CelIssue issue) {
        var location = issue.getSourceLocation();
        int line = location == null ? 0 : location.getLine();
        return new CelProblem(Math.max(line, 0), line <= 0 ? 0 : location.getColumn() + 1, issue.getMessage());
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

    private record Compiled(CelProgram program, CelExpressionException error) {
    }

    /** Thrown from the evaluation listener once the deadline has passed; CEL wraps it. */
    private static final class DeadlineExceeded extends RuntimeException {
        DeadlineExceeded() {
            super("deadline exceeded", null, false, false);
        }
    }
}
