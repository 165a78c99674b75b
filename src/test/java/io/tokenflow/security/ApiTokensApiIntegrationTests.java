package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
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

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

import io.tokenflow.IntegrationTest;

/** {@code /api/v1/tokens}: issuing (with the CSRF rules for sessions), listing and revoking one's own tokens. */
@IntegrationTest
@AutoConfigureMockMvc
class ApiTokensApiIntegrationTests {

    @Autowired
    MockMvc mvc;
    @Autowired
    ApiTokenService tokens;
    @Autowired
    UserAccountRepository users;
    @Autowired
    Clock clock;

    private String designer;

    @BeforeEach
    void createDesigner() {
        designer = new TestAccounts(users, clock).create(Role.DESIGNER);
    }

    @Test
    void refusesScopesBeyondTheOwnersRoles() throws Exception {
        assertThatThrownBy(() -> tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.APPROVALS_DECIDE), null))
                .isInstanceOf(TokenRequestRejectedException.class)
                .hasMessageContaining("'approvals:decide' is not among them");
        MockHttpSession session = TestAccounts.signIn(mvc, designer, TestAccounts.PASSWORD);

        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"ci\", \"scopes\": [\"runs:read\", \"approvals:decide\"]}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString("'approvals:decide'")));
    }

    @Test
    void signedInPersonCreatesTokenWithCsrfHeaderAndSeesTheSecretOnce() throws Exception {
        MockHttpSession session = TestAccounts.signIn(mvc, designer, TestAccounts.PASSWORD);

        String created = mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"laptop\", \"scopes\": [\"workflows:write\", \"tokens:manage\"], "
                                + "\"expiresInDays\": 30}"))
                .andExpect(status().isCreated())
                .andExpect(header().string(HttpHeaders.CACHE_CONTROL, containsString("no-store")))
                .andExpect(jsonPath("$.name").value("laptop"))
                .andExpect(jsonPath("$.scopes", hasItem("workflows:write")))
                .andExpect(jsonPath("$.expiresAt").isNotEmpty())
                .andExpect(jsonPath("$.secret").value(startsWith("tf_")))
                .andReturn().getResponse().getContentAsString();

        bearerGet(JsonPath.read(created, "$.secret")).andExpect(status().isOk())
                .andExpect(jsonPath("$[*].name", hasItem("laptop")));
    }

    /** expiresAt was accepted and ignored: the token never expired. */
    @Test
    void honoursExpiresAtAndRefusesOneInThePastOrBesideExpiresInDays() throws Exception {
        MockHttpSession session = TestAccounts.signIn(mvc, designer, TestAccounts.PASSWORD);
        String at = clock.instant().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS).toString();

        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"two-days\", \"scopes\": [\"runs:read\"], \"expiresAt\": \"" + at + "\"}"))
                .andExpect(status().isCreated()).andExpect(jsonPath("$.expiresAt").value(at));
        assertThat(tokens.list(designer, "default")).filteredOn(token -> token.name().equals("two-days"))
                .singleElement()
                .satisfies(token -> assertThat(token.expiresAt()).isEqualTo(Instant.parse(at)));
        String past = clock.instant().minus(Duration.ofHours(1)).toString();
        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"past\", \"scopes\": [\"runs:read\"], \"expiresAt\": \"" + past + "\"}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.detail").value(containsString("lifetime above zero")));
        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"both\", \"scopes\": "
                                + "[\"runs:read\"], \"expiresInDays\": 1, \"expiresAt\": \"" + at + "\"}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.detail").value("Expected expiresInDays or expiresAt, but got both"));
        // a misspelt member is refused, not ignored (a token with the default scopes instead of the ones meant)
        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"typo\", \"scope\": "
                                + "[\"runs:read\"]}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/scope"));
        mvc.perform(post("/api/v1/tokens").session(session).with(csrf().asHeader())
                        .contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"kind\", \"scopes\": 5}"))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/scopes"))
                .andExpect(jsonPath("$.detail").value(containsString("an array of strings")));
    }

    @Test
    void refusesSessionPostWithoutCsrfToken() throws Exception {
        MockHttpSession session = TestAccounts.signIn(mvc, designer, TestAccounts.PASSWORD);

        mvc.perform(post("/api/v1/tokens").session(session).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"ci\", \"scopes\": [\"runs:read\"]}"))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString("CSRF")));
    }

    @Test
    void bearerRequestsNeedNoCsrfToken() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.RUNS_WRITE,
                Scope.TOKENS_MANAGE), null);

        mvc.perform(post("/api/v1/tokens").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"worker\", \"scopes\": [\"runs:read\"]}"))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.expiresAt").isEmpty());
    }

    @Test
    void tokenCannotMintAStrongerToken() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        mvc.perform(post("/api/v1/tokens").header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"escalate\", \"scopes\": [\"workflows:write\"]}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.detail").value(containsString("'workflows:write'")));
    }

    @Test
    void revokesOwnTokenWhichIsRefusedAfterwards() throws Exception {
        IssuedToken issued = tokens.issue(designer, "ci", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        mvc.perform(delete("/api/v1/tokens/" + issued.id()).header(HttpHeaders.AUTHORIZATION, "Bearer " + issued.secret()))
                .andExpect(status().isNoContent());

        expectUnauthorizedProblem(bearerGet(issued.secret()));
        assertThat(tokens.list(designer, "default")).singleElement()
                .satisfies(token -> assertThat(token.revokedAt()).isNotNull());
    }

    @Test
    void answers404WhenRevokingSomeoneElsesToken() throws Exception {
        IssuedToken theirs = tokens.issue(designer, "theirs", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);
        String operator = new TestAccounts(users, clock).create(Role.OPERATOR);
        IssuedToken mine = tokens.issue(operator, "mine", Set.of(Scope.RUNS_READ, Scope.TOKENS_MANAGE), null);

        mvc.perform(delete("/api/v1/tokens/" + theirs.id()).header(HttpHeaders.AUTHORIZATION, "Bearer " + mine.secret()))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        bearerGet(theirs.secret()).andExpect(status().isOk());
        bearerGet(mine.secret()).andExpect(jsonPath("$[*].name", not(hasItem("theirs"))));
    }

    /** Listing, issuing and revoking tokens takes tokens:manage: a runs:read token revoked a stronger one (204). */
    @Test
    void aTokenWithoutTokensManageNeitherListsNorIssuesNorRevokesTokens() throws Exception {
        IssuedToken strong = tokens.issue(designer, "strong", Set.of(Scope.WORKFLOWS_WRITE, Scope.TOKENS_MANAGE), null);
        IssuedToken weak = tokens.issue(designer, "weak", Set.of(Scope.RUNS_READ), null);

        mvc.perform(delete("/api/v1/tokens/" + strong.id())
                        .header(HttpHeaders.AUTHORIZATION, "Bearer " + weak.secret())).andExpect(status().isForbidden());
        bearerGet(weak.secret()).andExpect(status().isForbidden());
        mvc.perform(post("/api/v1/tokens").header(HttpHeaders.AUTHORIZATION, "Bearer " + weak.secret())
                        .contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"x\", \"scopes\": [\"runs:read\"]}"))
                .andExpect(status().isForbidden());
        bearerGet(strong.secret()).andExpect(status().isOk()).andExpect(jsonPath("$[*].name", hasItem("strong")));
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
