package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import io.tokenflow.IntegrationTest;
import io.tokenflow.support.ApiEndpoints;

/**
 * The authorization matrix: every endpoint under {@code /api} (read from the request mappings, so a new endpoint
 * without a row here fails the test) against no credentials, a real bearer token holding each single scope, a
 * revoked token and an expired one. Each endpoint's row names the one scope it needs (or that it is public); a token
 * with exactly that scope passes, every other single-scope token is refused with 403, no credentials, a revoked or an
 * expired token with 401. The wrong-tenant column (a token of another tenant holding every scope) is
 * {@code tenancy.TenantIsolationIntegrationTests}, which needs real objects in a tenant behind each path.
 */
@IntegrationTest
@AutoConfigureMockMvc
class AuthorizationMatrixIntegrationTests {

    /** What each endpoint needs: a scope's value, or "public". Keys are "METHOD pattern" as mapped. */
    private static final Map<String, String> NEEDS = new LinkedHashMap<>();

    static {
        need("public", "GET /api/v1/schema/workflow");
        need("workflows:read", "GET /api/v1/workflows", "GET /api/v1/workflows/{workflow}",
                "GET /api/v1/workflows/{workflow}/versions", "GET /api/v1/workflows/{workflow}/versions/{version}",
                "GET /api/v1/workflows/{workflow}/diff",
                "GET /api/v1/workflows/{workflow}/versions/{version}/dsl",
                "GET /api/v1/workflows/{workflow}/tags",
                "GET /api/v1/workflows/{workflow}/triggers", "GET /api/v1/node-types", "GET /api/v1/node-types/{name}",
                "GET /api/v1/agents", "GET /api/v1/agents/{name}");
        need("workflows:write", "POST /api/v1/workflows", "PATCH /api/v1/workflows/{workflow}",
                "POST /api/v1/workflows/compile",
                "POST /api/v1/workflows/{workflow}/versions/{version}/restore",
                "PUT /api/v1/workflows/{workflow}/tags/{tag}", "DELETE /api/v1/workflows/{workflow}/tags/{tag}",
                "POST /api/v1/workflows/{workflow}/triggers/{trigger}/secret");
        need("admin", "GET /api/v1/workflows/{workflow}/triggers/refusals", "PUT /api/v1/node-types/{name}",
                "DELETE /api/v1/node-types/{name}", "PUT /api/v1/agents/{name}", "DELETE /api/v1/agents/{name}",
                "POST /api/v1/runs/{id}/recover", "GET /api/v1/worker-keys", "POST /api/v1/worker-keys",
                "DELETE /api/v1/worker-keys/{id}", "POST /api/v1/worker-keys/built-in/rotate",
                "GET /api/v1/users", "POST /api/v1/users", "PATCH /api/v1/users/{username}", "GET /api/v1/audit",
                "GET /api/v1/tenants", "POST /api/v1/tenants", "PATCH /api/v1/tenants/{id}");
        need("runs:read", "GET /api/v1/runs", "GET /api/v1/runs/{id}", "GET /api/v1/runs/{id}/events",
                "GET /api/v1/runs/{id}/replay", "GET /api/v1/dlq", "GET /api/v1/dlq/{id}", "GET /api/v1/quarantine",
                "GET /api/v1/cas/{hash}", "GET /api/v1/signals/rejected");
        need("runs:write", "POST /api/v1/runs", "POST /api/v1/runs/{id}/cancel", "POST /api/v1/runs/{id}/retry",
                "POST /api/v1/runs/{id}/compensate", "POST /api/v1/dlq/{id}/reprocess",
                "POST /api/v1/dlq/{id}/discard");
        need("runs:patch", "POST /api/v1/runs/{id}/patch");
        need("approvals:read", "GET /api/v1/approvals", "GET /api/v1/approvals/{id}");
        need("approvals:decide", "POST /api/v1/approvals/{id}/decide");
        need("signals:send", "POST /api/v1/signals/{name}");
        need("tokens:manage", "GET /api/v1/tokens", "POST /api/v1/tokens", "DELETE /api/v1/tokens/{id}");
    }

    private static void need(String scope, String... endpoints) {
        for (String endpoint : endpoints) {
            NEEDS.put(endpoint, scope);
        }
    }

    @Autowired MockMvc mvc;
    @Autowired ApiTokenService tokens;
    @Autowired UserAccountRepository users;
    @Autowired JdbcClient jdbc;
    @Autowired Clock clock;
    @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

    @Test
    void everyEndpointTakesExactlyItsScopeAndRefusesEveryOtherCredential() throws Exception {
        Set<String> mapped = ApiEndpoints.mapped(mappings);
        assertThat(mapped).as("endpoints without a row in the matrix").isSubsetOf(NEEDS.keySet());
        assertThat(NEEDS.keySet()).as("rows of endpoints that are not mapped").isSubsetOf(mapped);

        String owner = new TestAccounts(users, clock).create(Role.ADMIN);
        Map<Scope, String> single = new EnumMap<>(Scope.class);
        for (Scope scope : Scope.values()) {
            single.put(scope, tokens.issue(owner, "only-" + scope.value(), Set.of(scope), null).secret());
        }
        IssuedToken revoked = tokens.issue(owner, "revoked", Set.of(Scope.values()), null);
        tokens.revoke(owner, revoked.id());
        IssuedToken expired = tokens.issue(owner, "expired", Set.of(Scope.values()), Duration.ofDays(1));
        jdbc.sql("update api_tokens set expires_at = now() - interval '1 second' where id = ?").param(expired.id())
                .update();

        List<String> wrong = new ArrayList<>();
        for (String endpoint : mapped) {
            String needs = NEEDS.get(endpoint);
            boolean open = needs.equals("public");
            expect(wrong, endpoint, "no credentials", null, open ? "passes" : "401");
            expect(wrong, endpoint, "a revoked token", revoked.secret(), "401");
            expect(wrong, endpoint, "an expired token", expired.secret(), "401");
            for (Map.Entry<Scope, String> token : single.entrySet()) {
                boolean allowed = open || token.getKey().value().equals(needs);
                expect(wrong, endpoint, "a " + token.getKey().value() + " token", token.getValue(),
                        allowed ? "passes" : "403");
            }
        }
        System.out.printf("Authorization matrix: %d endpoints x %d credentials, %d wrong%n", mapped.size(),
                single.size() + 3, wrong.size());
        assertThat(wrong).isEmpty();
    }

    private void expect(List<String> wrong, String endpoint, String credential, String secret, String expected)
            throws Exception {
        int space = endpoint.indexOf(' ');
        String path = endpoint.substring(space + 1).replaceAll("\\{[^}]+}", "x1");
        MockHttpServletRequestBuilder request = request(HttpMethod.valueOf(endpoint.substring(0, space)), path)
                .contentType(MediaType.APPLICATION_JSON).content("{}");
        if (secret != null) {
            request.header(HttpHeaders.AUTHORIZATION, "Bearer " + secret);
        }
        int status = mvc.perform(request).andReturn().getResponse().getStatus();
        boolean ok = expected.equals("passes") ? status != 401 && status != 403
                : status == Integer.parseInt(expected);
        if (!ok) {
            wrong.add(endpoint + " with " + credential + ": expected " + expected + ", but got " + status);
        }
    }
}
