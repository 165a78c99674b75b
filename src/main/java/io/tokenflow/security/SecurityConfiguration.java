package io.tokenflow.security;

import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.AbstractHttpConfigurer;
import org.springframework.security.config.annotation.web.configurers.HeadersConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.SecurityContextHolderFilter;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.savedrequest.NullRequestCache;

import io.tokenflow.web.Outages;
import tools.jackson.databind.json.JsonMapper;

/**
 * Three filter chains: {@code /hooks/**} (open: a webhook checks its trigger's secret itself), {@code /api/**},
 * {@code /actuator/**} and the OpenAPI document {@code /v3/api-docs} (bearer tokens, HTTP Basic or the session;
 * problem+json on refusal) and everything else (pages, Swagger UI among them: form login at {@code /login}, CSRF,
 * redirects to the login page).
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    ApplicationRunner userAccountsInitialisation(UserAccountsInitializer initializer) {
        return arguments -> initializer.initialise();
    }

    /** Webhooks authenticate by their trigger's secret (checked by the webhook itself): no session, no CSRF. */
    @Bean
    @Order(0)
    SecurityFilterChain webhookSecurityFilterChain(HttpSecurity http) {
        return http.securityMatcher("/hooks/**")
                .authorizeHttpRequests(hooks -> hooks.anyRequest().permitAll())
                .csrf(AbstractHttpConfigurer::disable)
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.requestCache(new NullRequestCache()))
                .logout(AbstractHttpConfigurer::disable)
                .build();
    }

    @Bean
    @Order(1)
    SecurityFilterChain apiSecurityFilterChain(HttpSecurity http, ApiTokenVerifier verifier, JsonMapper json,
                                               UserAccountDetailsService accounts) {
        ApiProblemResponses problems = new ApiProblemResponses(json);
        return http.securityMatcher("/api/**", "/actuator/**", "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml")
                .addFilterAfter(new FreshAccountFilter(accounts), SecurityContextHolderFilter.class)
                .authorizeHttpRequests(ApiAuthorizationRules::apply)
                .addFilterBefore(bearerTokenFilter(verifier, problems), BasicAuthenticationFilter.class)
                .addFilterAfter(new TenantFilter(accounts), AuthorizationFilter.class)
                .httpBasic(basic -> basic.authenticationEntryPoint(problems))
                // CSRF guards the session only: a request with credentials of its own, or with no session at all
                // (anonymous: answered 401 below, not 403 "CSRF"), has no cookie for a forged page to ride on
                .csrf(csrf -> csrf.ignoringRequestMatchers(request -> AuthorizationHeader.carriesCredentials(request)
                        || request.getSession(false) == null))
                .requestCache(cache -> cache.requestCache(new NullRequestCache()))
                .exceptionHandling(exceptions -> exceptions.authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .logout(AbstractHttpConfigurer::disable)
                .headers(SecurityConfiguration::pageHeaders)
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain pageSecurityFilterChain(HttpSecurity http, UserAccountDetailsService accounts) {
        return http.addFilterAfter(new FreshAccountFilter(accounts), SecurityContextHolderFilter.class)
                .addFilterAfter(new TenantFilter(accounts), AuthorizationFilter.class)
                .authorizeHttpRequests(pages -> pages
                        .requestMatchers("/login", "/error", "/assets/**", "/webjars/**", "/favicon.ico").permitAll()
                        .requestMatchers(HttpMethod.POST, "/workflows/**")
                        .hasAnyAuthority(Role.DESIGNER.authority(), Role.ADMIN.authority())
                        .requestMatchers(HttpMethod.POST, "/dlq/**", "/runs/**")
                        .hasAnyAuthority(Role.OPERATOR.authority(), Role.ADMIN.authority())
                        .requestMatchers("/users", "/users/**", "/audit", "/tenants", "/tenants/**")
                        .hasAuthority(Role.ADMIN.authority())
                        .anyRequest().authenticated())
                .formLogin(form -> form.loginPage("/login").permitAll().failureHandler(loginFailures())
                        .successHandler(FreshAccountFilter.markingSignIns()))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout").permitAll())
                .headers(SecurityConfiguration::pageHeaders)
                .build();
    }

    /**
     * Pages run only the scripts this server serves (no inline script, no eval; JSON data blocks are not scripts),
     * talk only to this server (the live view's WebSocket included), are framed by nobody, send only their origin to
     * other sites, and ask for no device. Styles may be inline too: the graph library (cytoscape) adds a
     * {@code <style>} element for its container, which a browser otherwise refuses.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' "
            + "'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
            + "frame-ancestors 'none'";

    private static void pageHeaders(HeadersConfigurer<HttpSecurity> headers) {
        headers.contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN))
                .permissionsPolicyHeader(permissions -> permissions.policy(
                        "camera=(), microphone=(), geolocation=(), payment=(), usb=()"));
    }

    private static AuthenticationFilter bearerTokenFilter(ApiTokenVerifier verifier, ApiProblemResponses problems) {
        AuthenticationFilter filter = new AuthenticationFilter(
                new ProviderManager(new ApiTokenAuthenticationProvider(verifier)), new AuthorizationHeader());
        filter.setSuccessHandler((request, response, authentication) -> { });
        filter.setFailureHandler(failureHandler(problems));
        return filter;
    }

    /** Back to the sign-in page: saying the credentials are wrong, or that they cannot be checked now. */
    private static AuthenticationFailureHandler loginFailures() {
        AuthenticationFailureHandler wrong = new SimpleUrlAuthenticationFailureHandler("/login?error");
        AuthenticationFailureHandler unavailable = new SimpleUrlAuthenticationFailureHandler("/login?unavailable");
        return (request, response, exception) -> (Outages.of(exception).isPresent() ? unavailable : wrong)
                .onAuthenticationFailure(request, response, exception);
    }

    /** Refusals answer through {@code problems}, and so does a token that cannot be checked (PostgreSQL away). */
    private static AuthenticationFailureHandler failureHandler(ApiProblemResponses problems) {
        AuthenticationFailureHandler refusals = new AuthenticationEntryPointFailureHandler(problems);
        return (request, response, exception) -> {
            if (Outages.of(exception).isPresent()) {
                problems.commence(request, response, exception);
            } else {
                refusals.onAuthenticationFailure(request, response, exception);
            }
        };
    }
}
