package io.tokenflow.designer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tokenflow.cas.CasStore;
import io.tokenflow.engine.compiler.CronSyntax;
import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.conditions.ConditionEngine;
import io.tokenflow.engine.types.BuiltInNodeTypes;

/**
 * The engine's compiler as a bean, and the condition engine: one bean that is both the {@code ConditionCompiler}
 * and the {@code ConditionEvaluator}, with the limits of {@code tokenflow.conditions} and schemas and code read from
 * CAS.
 */
@Configuration(proxyBeanMethods = false)
class EngineConfiguration {

    @Bean
    ConditionEngine conditionEngine(ConditionSettings settings, CasStore cas) {
        return new ConditionEngine(settings.limits(), cas::get);
    }

    @Bean
    WorkflowCompiler workflowCompiler(ConditionCompiler conditions, CronSyntax cron) {
        return new WorkflowCompiler(BuiltInNodeTypes.get(), conditions, cron);
    }
}
