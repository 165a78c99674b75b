package io.tokenflow.triggers;

import java.util.Optional;

import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.compiler.CronSyntax;

/** The compiler's cron parser: Spring's {@link CronExpression}, the one {@link CronTicks} fires with. */
@Component
public class SpringCronSyntax implements CronSyntax {

    @Override
    public Optional<String> problem(String expression) {
        try {
            CronExpression.parse(expression);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
