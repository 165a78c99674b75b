package io.tokenflow.security;

import static org.springframework.http.HttpMethod.GET;
import static org.springframework.http.HttpMethod.POST;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;

/**
 * Who may call what under {@code /api/**} and {@code /actuator/**}. Each rule names the {@link Scope} it needs; the
 * request passes with that scope's {@code SCOPE_…} authority (a token) or a role allowing it (a person). First match wins.
 */
final class ApiAuthorizationRules {

    private ApiAuthorizationRules() {
    }

    static void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules) {
        rules.requestMatchers(GET, "/api/v1/schema/**").permitAll()
                .requestMatchers("/actuator/health/**", "/actuator/info").permitAll()
                .requestMatchers(GET, "/api/v1/workflows/*/triggers/refusals")
                .hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/workflows/**", "/api/v1/node-types/**", "/api/v1/agents/**")
                .hasAnyAuthority(Scope.WORKFLOWS_READ.grantingAuthorities())
                .requestMatchers("/api/v1/workflows/**").hasAnyAuthority(Scope.WORKFLOWS_WRITE.grantingAuthorities())
                .requestMatchers("/api/v1/node-types/**", "/api/v1/agents/**")
                .hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .requestMatchers(POST, "/api/v1/signals/*").hasAnyAuthority(Scope.SIGNALS_SEND.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/signals/rejected").hasAnyAuthority(Scope.RUNS_READ.grantingAuthorities())
                .requestMatchers(POST, "/api/v1/runs/*/recover").hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .requestMatchers(POST, "/api/v1/runs/*/patch").hasAnyAuthority(Scope.RUNS_PATCH.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/runs/**").hasAnyAuthority(Scope.RUNS_READ.grantingAuthorities())
                .requestMatchers("/api/v1/runs/**").hasAnyAuthority(Scope.RUNS_WRITE.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/dlq/**").hasAnyAuthority(Scope.RUNS_READ.grantingAuthorities())
                .requestMatchers("/api/v1/dlq/**").hasAnyAuthority(Scope.RUNS_WRITE.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/quarantine/**").hasAnyAuthority(Scope.RUNS_READ.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/approvals/**").hasAnyAuthority(Scope.APPROVALS_READ.grantingAuthorities())
                .requestMatchers("/api/v1/approvals/**").hasAnyAuthority(Scope.APPROVALS_DECIDE.grantingAuthorities())
                .requestMatchers(GET, "/api/v1/cas/**").hasAnyAuthority(Scope.RUNS_READ.grantingAuthorities())
                .requestMatchers("/api/v1/tokens/**", "/api/v1/tokens")
                .hasAnyAuthority(Scope.TOKENS_MANAGE.grantingAuthorities())
                .requestMatchers("/api/v1/users/**", "/api/v1/users", "/api/v1/audit", "/api/v1/tenants/**",
                        "/api/v1/tenants")
                .hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .requestMatchers("/api/v1/worker-keys/**", "/api/v1/worker-keys")
                .hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .requestMatchers("/actuator/**").hasAnyAuthority(Scope.ADMIN.grantingAuthorities())
                .anyRequest().authenticated();
    }
}
