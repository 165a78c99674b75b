package io.tokenflow.security;

import static org.springframework.http.HttpMethod.GET;
import static org.springframework.http.HttpMethod.POST;

import java.util.List;
import java.util.Optional;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AuthorizeHttpRequestsConfigurer;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Who may call what under {@code /api/**} and {@code /actuator/**}. Each rule names the {@link Scope} it needs; the
 * request passes with that scope's {@code SCOPE_…} authority (a token) or a role allowing it (a person). First match
 * wins; a request no rule matches needs only to be signed in. The table is data so that the filter chain
 * ({@link #apply}) and the API document ({@link #accessFor}) read the same rules.
 */
public final class ApiAuthorizationRules {

    private static final List<Rule> RULES = List.of(
            Rule.open(GET, "/api/v1/schema/**"),
            Rule.open(null, "/actuator/health/**", "/actuator/info"),
            Rule.of(GET, Scope.ADMIN, "/api/v1/workflows/*/triggers/refusals"),
            Rule.of(GET, Scope.WORKFLOWS_READ, "/api/v1/workflows/**", "/api/v1/node-types/**", "/api/v1/agents/**"),
            Rule.of(null, Scope.WORKFLOWS_WRITE, "/api/v1/workflows/**"),
            Rule.of(null, Scope.ADMIN, "/api/v1/node-types/**", "/api/v1/agents/**"),
            Rule.of(POST, Scope.SIGNALS_SEND, "/api/v1/signals/*"),
            Rule.of(GET, Scope.RUNS_READ, "/api/v1/signals/rejected"),
            Rule.of(POST, Scope.ADMIN, "/api/v1/runs/*/recover"),
            Rule.of(POST, Scope.RUNS_PATCH, "/api/v1/runs/*/patch"),
            Rule.of(GET, Scope.RUNS_READ, "/api/v1/runs/**"),
            Rule.of(null, Scope.RUNS_WRITE, "/api/v1/runs/**"),
            Rule.of(GET, Scope.RUNS_READ, "/api/v1/dlq/**"),
            Rule.of(null, Scope.RUNS_WRITE, "/api/v1/dlq/**"),
            Rule.of(GET, Scope.RUNS_READ, "/api/v1/quarantine/**"),
            Rule.of(GET, Scope.APPROVALS_READ, "/api/v1/approvals/**"),
            Rule.of(null, Scope.APPROVALS_DECIDE, "/api/v1/approvals/**"),
            Rule.of(GET, Scope.RUNS_READ, "/api/v1/cas/**"),
            Rule.of(null, Scope.TOKENS_MANAGE, "/api/v1/tokens/**", "/api/v1/tokens"),
            Rule.of(null, Scope.ADMIN, "/api/v1/users/**", "/api/v1/users", "/api/v1/audit", "/api/v1/tenants/**",
                    "/api/v1/tenants"),
            Rule.of(null, Scope.ADMIN, "/api/v1/worker-keys/**", "/api/v1/worker-keys"),
            Rule.of(null, Scope.ADMIN, "/actuator/**"));

    private ApiAuthorizationRules() {
    }

    /** What a request needs: nothing ({@code open}), the {@code scope} (when present), or else only to be signed in. */
    public record Access(boolean open, Optional<Scope> scope) {

        static final Access SIGNED_IN = new Access(false, Optional.empty());
    }

    /** One row: requests of {@code method} (null: any) to one of {@code patterns} need {@code access}. */
    private record Rule(HttpMethod method, List<String> patterns, Access access) {

        static Rule open(HttpMethod method, String... patterns) {
            return new Rule(method, List.of(patterns), new Access(true, Optional.empty()));
        }

        static Rule of(HttpMethod method, Scope scope, String... patterns) {
            return new Rule(method, List.of(patterns), new Access(false, Optional.of(scope)));
        }

        boolean matches(HttpMethod requested, PathContainer path) {
            return (method == null || method.equals(requested)) && patterns.stream()
                    .anyMatch(pattern -> PathPatternParser.defaultInstance.parse(pattern).matches(path));
        }
    }

    static void apply(AuthorizeHttpRequestsConfigurer<HttpSecurity>.AuthorizationManagerRequestMatcherRegistry rules) {
        for (Rule rule : RULES) {
            String[] patterns = rule.patterns().toArray(String[]::new);
            var matched = rule.method() == null ? rules.requestMatchers(patterns)
                    : rules.requestMatchers(rule.method(), patterns);
            if (rule.access().open()) {
                matched.permitAll();
            } else {
                matched.hasAnyAuthority(rule.access().scope().orElseThrow().grantingAuthorities());
            }
        }
        rules.anyRequest().authenticated();
    }

    /**
     * What a request of {@code method} to {@code path} needs, by the rules {@link #apply} gives the filter chain.
     * {@code path} may be a mapping's pattern: each {@code {variable}} is taken as one segment.
     */
    public static Access accessFor(HttpMethod method, String path) {
        PathContainer concrete = PathContainer.parsePath(path.replaceAll("\\{[^}/]+}", "x1"));
        return RULES.stream().filter(rule -> rule.matches(method, concrete)).map(Rule::access).findFirst()
                .orElse(Access.SIGNED_IN);
    }
}
