package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

import io.tokenflow.IntegrationTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * People managed by an admin on the REST API, as the person then meets it: created with a generated password, they
 * sign in on the form; a role taken away reaches their open session on its next request; disabled, the session ends.
 * Every step is in the audit log. Bad requests are refused naming the member; configured people, the last admin and
 * an admin disabling themselves are refused.
 */
@IntegrationTest
@AutoConfigureMockMvc
class UsersAdministrationIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String COMPILE = "{\"name\": \"x\", \"nodes\": [{\"id\": \"a\", \"type\": \"noop\"}]}";

    @Autowired MockMvc mvc;
    @Autowired JdbcClient jdbc;

    @Test
    void anAdminCreatesAPersonWhoSignsInThenLosesARoleAndIsDisabledInTheirOpenSessionAllAudited() throws Exception {
        String admin = "ada-" + suffix();
        String dana = "dana-" + suffix();
        JsonNode created = read(as(admin, post("/api/v1/users").contentType(MediaType.APPLICATION_JSON).content("""
                {"username": "%s", "displayName": "Dana", "roles": ["designer"]}""".formatted(dana)))
                .andExpect(status().isCreated()));
        assertThat(created.at("/user/roles").toString()).isEqualTo("[\"designer\"]");
        assertThat(created.at("/user/source").asString()).isEqualTo("admin");
        String password = created.get("generatedPassword").asString();
        assertThat(password).hasSizeGreaterThanOrEqualTo(12);

        mvc.perform(formLogin("/login").user(dana).password("wrong-password-1")).andExpect(status().is3xxRedirection());
        MockHttpSession session = (MockHttpSession) mvc.perform(formLogin("/login").user(dana).password(password))
                .andExpect(status().is3xxRedirection()).andReturn().getRequest().getSession(false);
        compile(session).andExpect(status().isOk());
        mvc.perform(get("/api/v1/users").session(session)).andExpect(status().isForbidden());

        as(admin, patch("/api/v1/users/" + dana).contentType(MediaType.APPLICATION_JSON)
                .content("{\"roles\": [\"approver\"]}")).andExpect(status().isOk())
                .andExpect(jsonPath("$.roles[0]").value("approver"));
        compile(session).andExpect(status().isForbidden());
        mvc.perform(get("/api/v1/approvals").session(session)).andExpect(status().isOk());

        as(admin, patch("/api/v1/users/" + dana).contentType(MediaType.APPLICATION_JSON)
                .content("{\"enabled\": false}")).andExpect(status().isOk()).andExpect(jsonPath("$.enabled")
                .value(false));
        mvc.perform(get("/api/v1/approvals").session(session)).andExpect(status().isUnauthorized());
        mvc.perform(formLogin("/login").user(dana).password(password))
                .andExpect(status().is3xxRedirection()).andExpect(result -> assertThat(result.getResponse()
                        .getRedirectedUrl()).contains("/login?error"));

        JsonNode byAdmin = read(as(admin, get("/api/v1/audit?actor=" + admin)).andExpect(status().isOk()));
        assertThat(byAdmin.valueStream().map(e -> e.get("action").asString() + " " + e.get("target").asString()))
                .containsExactly("user.changed " + dana, "user.changed " + dana, "user.created " + dana);
        assertThat(byAdmin.get(0).at("/details/enabled").asBoolean()).isFalse();
        JsonNode byDana = read(as(admin, get("/api/v1/audit?actor=" + dana)).andExpect(status().isOk()));
        assertThat(byDana.valueStream().map(e -> e.get("action").asString()))
                .containsExactly("sign-in.failed", "sign-in", "sign-in.failed");
        assertThat(byDana.get(0).at("/details/reason").asString()).isEqualTo("disabled");
        assertThat(byDana.get(2).at("/details/reason").asString()).isEqualTo("wrong username or password");
    }

    @Test
    void refusesWhatIsWrongNamingItAndProtectsConfiguredPeopleAndTheAdmins() throws Exception {
        String admin = "ada-" + suffix();
        create(admin, "{\"username\": \"x-%s\", \"nickname\": \"x\"}".formatted(suffix()))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/nickname"));
        create(admin, "{\"username\": \"x-%s\", \"roles\": [\"designer\", \"boss\"]}".formatted(suffix()))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/roles/1"));
        create(admin, "{\"username\": \"x-%s\", \"password\": \"short\"}".formatted(suffix()))
                .andExpect(status().isBadRequest()).andExpect(jsonPath("$.pointer").value("/password"));
        create(admin, "{\"username\": \"no spaces\"}").andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/username"));
        String taken = "taken-" + suffix();
        create(admin, "{\"username\": \"%s\", \"password\": \"a-long-password-1\"}".formatted(taken))
                .andExpect(status().isCreated()).andExpect(jsonPath("$.generatedPassword").doesNotExist());
        create(admin, "{\"username\": \"%s\"}".formatted(taken)).andExpect(status().isConflict());
        as(admin, patch("/api/v1/users/nobody-" + suffix()).contentType(MediaType.APPLICATION_JSON)
                .content("{\"enabled\": false}")).andExpect(status().isNotFound());
        as(admin, patch("/api/v1/users/" + taken).contentType(MediaType.APPLICATION_JSON)
                .content("{\"enabled\": \"no\"}")).andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.pointer").value("/enabled"));

        String configured = "conf-" + suffix();
        jdbc.sql("insert into users (username, password_hash, roles, source, created_at, updated_at) values (?, "
                + "'{noop}x', '[\"designer\"]', 'CONFIGURATION', now(), now())").param(configured).update();
        as(admin, patch("/api/v1/users/" + configured).contentType(MediaType.APPLICATION_JSON)
                .content("{\"roles\": []}")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString(
                        "tokenflow.security.users")));

        String root = "root-" + suffix();
        create(admin, "{\"username\": \"%s\", \"roles\": [\"admin\"]}".formatted(root)).andExpect(status().isCreated());
        as(root, patch("/api/v1/users/" + root).contentType(MediaType.APPLICATION_JSON)
                .content("{\"enabled\": false}")).andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("yourself")));
        as(admin, get("/api/v1/audit?limit=0")).andExpect(status().isBadRequest());
    }

    private ResultActions create(String admin, String body) throws Exception {
        return as(admin, post("/api/v1/users").contentType(MediaType.APPLICATION_JSON).content(body));
    }

    private ResultActions compile(MockHttpSession session) throws Exception {
        return mvc.perform(post("/api/v1/workflows/compile").session(session).with(csrf())
                .contentType(MediaType.APPLICATION_JSON).content(COMPILE));
    }

    private ResultActions as(String admin, MockHttpServletRequestBuilder request) throws Exception {
        return mvc.perform(request.with(user(admin).roles("ADMIN")).with(csrf()));
    }

    private static JsonNode read(ResultActions result) throws Exception {
        return JSON.readTree(result.andReturn().getResponse().getContentAsString());
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
