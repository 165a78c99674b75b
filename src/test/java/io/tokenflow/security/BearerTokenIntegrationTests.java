package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;

/** Requests authenticated by {@code Authorization: Bearer tf_…}: which tokens pass and what they may do. */
@IntegrationTest
@AutoConfigureMockMvc
class BearerTokenIntegrationTests {

    @Autowired
    MockMvc mvc;
    @Autowired
    ApiTokenService tokens;
    @Autowired
    ApiTokenRepository storedTokens;
    @Autowired
    UserAccountRepository users;
    @Autowired
    Clock clock;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    CredentialCache credentials;

    private String designer;

    @BeforeEach
    void createDesigner() {
        designer = new TestAccounts(users, clock).create(Role.DESIGNER);
    }

    @Test
    void issuedTokenAuthenticatesApiCallsAndIsListedWithoutItsSecret() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        mvc.perform(get("/api/v1/tokens").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].id").value(issued.id().toString()))
                .andExpect(jsonPath("$[0].scopes[0]").value("runs:read"))
                .andExpect(jsonPath("$[0].secret").doesNotExist())
                .andExpect(content().string(not(containsString(issued.secret()))))
                .andExpect(result -> assertThat(result.getRequest().getSession(false)).as("session").isNull());
    }

    @Test
    void storesOnlyTheSha256OfTheSecret() {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE),
                Duration.ofDays(7));

        ApiToken stored = storedTokens.findById(issued.id()).orElseThrow();
        assertThat(issued.secret()).startsWith("tf_");
        assertThat(stored.tokenHash()).isEqualTo(new ApiTokenSecret(issued.secret()).hash())
                .doesNotContain(issued.secret().substring(3));
        assertThat(stored.expiresAt()).isCloseTo(issued.createdAt().plus(Duration.ofDays(7)), within(1, ChronoUnit.MILLIS));
    }

    @Test
    void refusesRevokedTokenAtOnceThoughItWasCached() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);
        bearerGet(issued.secret()).andExpect(status().isOk());
        tokens.revoke(designer, issued.id());

        expectUnauthorizedProblem(bearerGet(issued.secret()))
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, containsString("invalid_token")))
                .andExpect(jsonPath("$.detail").value(containsString("was revoked")));
    }

    @Test
    void refusesExpiredToken() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE),
                Duration.ofDays(1));
        jdbc.update("update api_tokens set expires_at = now() - interval '1 second' where id = ?", issued.id());

        expectUnauthorizedProblem(bearerGet(issued.secret()))
                .andExpect(jsonPath("$.detail").value(containsString("expired at")));
    }

    @Test
    void refusesUnknownToken() throws Exception {
        expectUnauthorizedProblem(bearerGet("tf_not-a-token-anyone-was-given"))
                .andExpect(jsonPath("$.detail").value("Expected a known API token, but the bearer token matches none"));
    }

    @Test
    void forbidsTokenWithoutTheRequiredScope() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        mvc.perform(post("/api/v1/workflows").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret())
                        .contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(403))
                .andExpect(jsonPath("$.detail").value(containsString("SCOPE_workflows:write")));
    }

    @Test
    void tokenWithTheRequiredScopeIsLetThrough() throws Exception {
        IssuedToken issued = tokens.issue(designer, "reader", Set.of(Scope.WORKFLOWS_READ), null);

        mvc.perform(get("/api/v1/workflows").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isOk());
    }

    @Test
    void tokenLosesScopesItsOwnersRolesNoLongerAllowOnceItsCacheEntryExpires() throws Exception {
        IssuedToken issued = tokens.issue(designer, "reader", Set.of(Scope.WORKFLOWS_READ), null);
        mvc.perform(get("/api/v1/workflows").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isOk());
        UserAccount owner = users.findById(designer).orElseThrow();
        owner.changeRoles(Set.of(Role.APPROVER), clock.instant());
        users.save(owner);
        mvc.perform(get("/api/v1/workflows").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isOk()); // within credential-cache-ttl, as verified before
        credentials.forgetAll(); // as the TTL would
        mvc.perform(get("/api/v1/runs").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isForbidden());

        owner.changeRoles(Set.of(), clock.instant());
        users.save(owner);
        credentials.forgetAll();

        mvc.perform(get("/api/v1/workflows").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isForbidden());
    }

    @Test
    void recordsLastUseWithoutRewritingItOnEveryRequest() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        bearerGet(issued.secret()).andExpect(status().isOk());
        Instant firstUse = storedTokens.findById(issued.id()).orElseThrow().lastUsedAt();
        bearerGet(issued.secret()).andExpect(status().isOk());

        assertThat(firstUse).isNotNull();
        assertThat(storedTokens.findById(issued.id()).orElseThrow().lastUsedAt()).isEqualTo(firstUse);
    }

    private ResultActions bearerGet(String secret) throws Exception {
        return mvc.perform(get("/api/v1/tokens").header(HttpHeaders.AUTHORIZATION, "Bearer " + secret));
    }

    private static ResultActions expectUnauthorizedProblem(ResultActions result) throws Exception {
        return result.andExpect(status().isUnauthorized())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(header().string(HttpHeaders.WWW_AUTHENTICATE, startsWith("Bearer")))
                .andExpect(jsonPath("$.status").value(401))
                .andExpect(jsonPath("$.title").value("Unauthorized"))
                .andExpect(jsonPath("$.type").isNotEmpty());
    }
}
