package io.tokenflow.engine.conditions;

import java.time.Duration;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * A sandboxed Python interpreter for {@code python_sandbox} conditions. None is in the default build; the
 * {@code python} Maven profile adds one (GraalPy), found at run time through {@link ServiceLoader}.
 */
public interface PythonRuntime {

    /** How to get one, for messages where none is present. */
    String HOW_TO_ENABLE = "this build has no Python runtime; build Tokenflow with the python profile "
            + "(mvn -Ppython package, which adds GraalPy) to use python_sandbox conditions, or express the "
            + "condition in CEL";

    /** What is wrong with {@code code} (a syntax error, no {@code evaluate} function), or empty when it can run. */
    Optional<String> check(String code);

    /**
     * Calls {@code evaluate(output, context)} defined by {@code code}, with the values given as JSON text
     * ({@code context} maps node ids to {@code {"output": …}}; {@code input} is a global). The code has no file,
     * network, process, environment or host access.
     *
     * @throws ConditionEvaluationException when the code fails, does not return a bool, runs past {@code timeout} or
     *                                      allocates more than {@code maxMemoryBytes}
     */
    boolean evaluate(String code, String output, String context, String input, Duration timeout, long maxMemoryBytes);

    /** The runtime on the class path, if any (none when its registration is there but GraalPy is not). */
    static Optional<PythonRuntime> discover() {
        try {
            return ServiceLoader.load(PythonRuntime.class, PythonRuntime.class.getClassLoader()).findFirst();
        } catch (ServiceConfigurationError | LinkageError e) {
            return Optional.empty();
        }
    }
}
