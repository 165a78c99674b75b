package io.tokenflow.tenancy;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import io.tokenflow.web.NotFoundException;

/**
 * Checks, before any handler runs, that the run, approval or dead letter a request names by {@code {id}} belongs to the
 * tenant the request acts in; another tenant's answers 404 as if it did not exist (its existence is not told). One
 * check where the request enters instead of one in each of the many handlers that take a run id (API and pages:
 * read, events, replay, patch, cancel, retry, compensate, recover, node details; decide; reprocess, discard). Lists
 * are limited to the tenant by their queries.
 */
@Configuration
class TenantGuard implements HandlerInterceptor, WebMvcConfigurer {

    private final Map<String, Function<UUID, Optional<String>>> byPrefix;

    TenantGuard(RunTenants tenants) {
        this.byPrefix = Map.of("/api/v1/runs/{id}", tenants::ofRun, "/runs/{id}", tenants::ofRun,
                "/api/v1/approvals/{id}", tenants::ofApproval, "/approvals/{id}", tenants::ofApproval,
                "/api/v1/dlq/{id}", tenants::ofDeadLetter, "/dlq/{id}", tenants::ofDeadLetter);
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/v1/runs/*", "/api/v1/runs/*/**", "/runs/*", "/runs/*/**",
                "/api/v1/approvals/*", "/api/v1/approvals/*/**", "/approvals/*/**", "/api/v1/dlq/*",
                "/api/v1/dlq/*/**", "/dlq/*/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Optional<String> current = CurrentTenant.get();
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (current.isEmpty() || !(pattern instanceof String matched)) {
            return true;
        }
        Function<UUID, Optional<String>> owner = byPrefix.entrySet().stream()
                .filter(entry -> matched.equals(entry.getKey()) || matched.startsWith(entry.getKey() + "/"))
                .map(Map.Entry::getValue).findFirst().orElse(null);
        if (owner == null) {
            return true;
        }
        @SuppressWarnings("unchecked")
        Map<String, String> variables = (Map<String, String>) request.getAttribute(
                HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        UUID id;
        try {
            id = UUID.fromString(variables.get("id"));
        } catch (RuntimeException notAnId) {
            return true; // the handler refuses it as it always did
        }
        Optional<String> tenant = owner.apply(id);
        if (tenant.isPresent() && !tenant.get().equals(current.get())) {
            throw new NotFoundException("Expected " + what(matched) + " " + id + " in tenant '" + current.get()
                    + "', but there is none");
        }
        return true;
    }

    private static String what(String pattern) {
        return pattern.contains("approvals") ? "an approval" : pattern.contains("dlq") ? "a dead letter" : "a run";
    }
}
