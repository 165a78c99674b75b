package io.tokenflow.designer;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.tokenflow.engine.compiler.WorkflowCompiler;
import io.tokenflow.engine.conditions.ConditionCompiler;
import io.tokenflow.engine.conditions.StructuralConditionCompiler;
import io.tokenflow.engine.types.BuiltInNodeTypes;

/** The engine's compiler as a bean; the condition compiler is its own bean so richer ones can replace it. */
@Configuration(proxyBeanMethods = false)
class EngineConfiguration {

    @Bean
    ConditionCompiler conditionCompiler() {
        return new StructuralConditionCompiler();
    }

    @Bean
    WorkflowCompiler workflowCompiler(ConditionCompiler conditions) {
        return new WorkflowCompiler(BuiltInNodeTypes.get(), conditions);
    }
}
