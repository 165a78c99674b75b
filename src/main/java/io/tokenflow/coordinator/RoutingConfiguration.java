package io.tokenflow.coordinator;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tokenflow.engine.conditions.ConditionEvaluator;
import io.tokenflow.engine.routing.Router;

/** The engine's router, deciding with the application's condition evaluator. */
@Configuration(proxyBeanMethods = false)
class RoutingConfiguration {

    @Bean
    Router router(ConditionEvaluator conditions) {
        return new Router(conditions);
    }
}
