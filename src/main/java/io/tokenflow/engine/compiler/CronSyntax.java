package io.tokenflow.engine.compiler;

import java.util.Optional;

/**
 * Port: whether a cron expression of a trigger parses. The engine has no cron parser of its own (Java has none, and
 * the engine may not import Spring's); the application passes the same parser its scheduler fires with, so that a
 * schedule the compiler accepts is one the scheduler reads the same way.
 */
@FunctionalInterface
public interface CronSyntax {

    /** For compilers made without a parser: every cron trigger is refused, never silently accepted. */
    CronSyntax NONE = expression -> Optional.of("this compiler was made without a cron parser");

    /** @return why the expression does not parse, or empty when it does */
    Optional<String> problem(String expression);
}
