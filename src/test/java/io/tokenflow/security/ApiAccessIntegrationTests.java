package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.httpBasic;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;

@IntegrationTest
@AutoConfigureMockMvc
class ApiAccessIntegrationTests {

    @Autowired
    MockMvc mvc;
    @Autowired
    UserAccountRepository users;
    @Autowired
    Clock clock;

    @Test
    void unauthenticatedApiCallGets401ProblemNotARedirect() throws Exception {
        mvc.perform(get("/api/v1/workflows").accept(MediaType.TEXT_HTML))
                .andExpect(status().isUnauthorized())
                .andExpect(header().doesNotExist(HttpHeaders.LOCATION))
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"tokenflow\""))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/unauthenticated"))
                .andExpect(jsonPath("$.title").value("Unauthorized"))
                .andExpect(jsonPath("$.status").value(401))
                .andExpect(jsonPath("$.detail").isNotEmpty())
                .andExpect(jsonPath("$.instance").value("/api/v1/workflows"))
                .andExpect(result -> assertThat(result.getRequest().getSession(false)).as("session").isNull());
    }

    /** Without credentials or a session a write is unauthenticated (401), not a CSRF refusal (403). */
    @Test
    void anonymousWritesGet401NotACsrfRefusal() throws Exception {
        for (var request : List.of(post("/api/v1/runs"), put("/api/v1/workflows/w1"), patch("/api/v1/workflows/w1"),
                delete("/api/v1/tokens/" + UUID.randomUUID()))) {
            mvc.perform(request.contentType(MediaType.APPLICATION_JSON).content("{}"))
                    .andExpect(status().isUnauthorized())
                    .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/unauthenticated"));
        }
    }

    @Test
    void unauthenticatedPageRedirectsToLogin() throws Exception {
        mvc.perform(get("/workflows")).andExpect(status().isFound()).andExpect(redirectedUrl("/login"));
    }

    @Test
    void forbiddenApiCallGets403Problem() throws Exception {
        mvc.perform(post("/api/v1/node-types/x").with(user("dora").roles("DESIGNER")).with(csrf()))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.type").value("https://tokenflow.io/problems/forbidden"))
                .andExpect(jsonPath("$.detail").value(
                        "Expected one of the authorities [ROLE_ADMIN, SCOPE_admin], but the caller holds none of them"));
    }

    @Test
    void publicEndpointsNeedNoSignIn() throws Exception {
        mvc.perform(get("/actuator/health")).andExpect(status().isOk());
        assertThat(statusOf(HttpMethod.GET, "/api/v1/schema/workflow", null)).isNotIn(401, 403);
        mvc.perform(get("/login")).andExpect(status().isOk());
    }

    @Test
    void peopleMayUseHttpBasicOnTheApiWithoutABrowserPrompt() throws Exception {
        String operator = new TestAccounts(users, clock).create(Role.OPERATOR);

        mvc.perform(get("/api/v1/tokens").with(httpBasic(operator, TestAccounts.PASSWORD)))
                .andExpect(status().isOk())
                .andExpect(result -> assertThat(result.getRequest().getSession(false)).as("session").isNull());
        mvc.perform(get("/api/v1/tokens").with(httpBasic(operator, "wrong")))
                .andExpect(status().isUnauthorized())
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"tokenflow\""));
        mvc.perform(get("/workflows").with(httpBasic(operator, TestAccounts.PASSWORD)))
                .andExpect(status().isFound())
                .andExpect(redirectedUrl("/login"));
    }

    @ParameterizedTest(name = "{0} {1} with {2} → allowed: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            GET    | /api/v1/workflows           | ROLE_APPROVER          | true
            GET    | /api/v1/workflows/w1        | SCOPE_workflows:read   | true
            GET    | /api/v1/workflows           | SCOPE_runs:read        | false
            GET    | /api/v1/node-types          | ROLE_OPERATOR          | true
            POST   | /api/v1/workflows           | ROLE_DESIGNER          | true
            POST   | /api/v1/workflows           | SCOPE_workflows:write  | true
            POST   | /api/v1/workflows           | ROLE_OPERATOR          | false
            PUT    | /api/v1/workflows/w1        | ROLE_APPROVER          | false
            DELETE | /api/v1/workflows/w1        | ROLE_ADMIN             | true
            PUT    | /api/v1/node-types/t1       | ROLE_DESIGNER          | false
            PUT    | /api/v1/node-types/t1       | SCOPE_admin            | true
            POST   | /api/v1/runs/r1/patch       | ROLE_OPERATOR          | true
            POST   | /api/v1/runs/r1/patch       | SCOPE_runs:patch       | true
            POST   | /api/v1/runs/r1/patch       | ROLE_DESIGNER          | false
            POST   | /api/v1/runs/r1/patch       | SCOPE_runs:write       | false
            GET    | /api/v1/runs/r1             | ROLE_APPROVER          | true
            GET    | /api/v1/runs                | SCOPE_runs:read        | true
            GET    | /api/v1/runs                | SCOPE_workflows:read   | false
            POST   | /api/v1/runs                | ROLE_DESIGNER          | true
            POST   | /api/v1/runs                | SCOPE_runs:write       | true
            POST   | /api/v1/runs                | ROLE_APPROVER          | false
            POST   | /api/v1/runs/r1/cancel      | SCOPE_runs:read        | false
            GET    | /api/v1/approvals           | ROLE_OPERATOR          | true
            GET    | /api/v1/approvals           | SCOPE_approvals:read   | true
            GET    | /api/v1/approvals           | ROLE_DESIGNER          | false
            POST   | /api/v1/approvals/a1/decide | ROLE_APPROVER          | true
            POST   | /api/v1/approvals/a1/decide | SCOPE_approvals:decide | true
            POST   | /api/v1/approvals/a1/decide | ROLE_OPERATOR          | false
            GET    | /api/v1/quarantine          | SCOPE_runs:read        | true
            GET    | /api/v1/quarantine          | SCOPE_workflows:read   | false
            GET    | /actuator/metrics           | ROLE_DESIGNER          | false
            GET    | /actuator/metrics           | SCOPE_admin            | true
            GET    | /api/v1/tokens              | SCOPE_runs:read        | false
            GET    | /api/v1/tokens              | SCOPE_tokens:manage    | true
            GET    | /api/v1/tokens              | ROLE_APPROVER          | true
            POST   | /api/v1/tokens              | ROLE_ADMIN             | true
            POST   | /api/v1/tokens              | SCOPE_admin            | false
            DELETE | /api/v1/tokens/t1           | SCOPE_runs:read        | false
            DELETE | /api/v1/tokens/t1           | SCOPE_tokens:manage    | true
            GET    | /api/v1/cas/sha256:00       | SCOPE_workflows:read   | false
            GET    | /api/v1/cas/sha256:00       | SCOPE_runs:read        | true
            GET    | /api/v1/cas/sha256:00       | ROLE_DESIGNER          | true
            GET    | /api/v1/signals/rejected    | SCOPE_workflows:read   | false
            GET    | /api/v1/signals/rejected    | SCOPE_runs:read        | true
            GET    | /workflows                  | ROLE_APPROVER          | true
            """)
    void authorisesEachApiAreaByRoleOrScope(String method, String path, String authority, boolean allowed)
            throws Exception {
        int status = statusOf(HttpMethod.valueOf(method), path, authority);

        if (allowed) {
            assertThat(status).as("status of an allowed request").isNotIn(401, 403);
        } else {
            assertThat(status).isEqualTo(403);
        }
    }

    private int statusOf(HttpMethod method, String path, String authority) throws Exception {
        var request = request(method, path).with(csrf()).contentType(MediaType.APPLICATION_JSON).content("{}");
        if (authority != null) {
            request.with(user("someone").authorities(new SimpleGrantedAuthority(authority)));
        }
        return mvc.perform(request).andReturn().getResponse().getStatus();
    }
}
