package io.tokenflow.live;

import java.util.Map;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.thymeleaf.context.IExpressionContext;
import org.thymeleaf.context.IWebContext;
import org.thymeleaf.linkbuilder.StandardLinkBuilder;
import org.thymeleaf.spring6.SpringTemplateEngine;

/**
 * Thymeleaf's link builder, except that context-relative links ({@code @{/runs}}) also resolve outside a web request
 * (pushed fragments), against the root context path the application is served from.
 */
public final class LiveLinkBuilder extends StandardLinkBuilder {

    @Override
    protected String computeContextPath(IExpressionContext context, String base, Map<String, Object> parameters) {
        return context instanceof IWebContext ? super.computeContextPath(context, base, parameters) : "";
    }

    /** Installs the link builder on the template engine before its first use. */
    @Configuration(proxyBeanMethods = false)
    static class Installation {

        @Bean
        static BeanPostProcessor liveLinkBuilderInstallation() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessBeforeInitialization(Object bean, String beanName) {
                    if (bean instanceof SpringTemplateEngine engine) {
                        engine.setLinkBuilder(new LiveLinkBuilder());
                    }
                    return bean;
                }
            };
        }
    }
}
