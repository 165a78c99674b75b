package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.transaction.annotation.Transactional;

import io.tokenflow.IntegrationTest;

@IntegrationTest
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = {
        "tokenflow.security.users[0].username=cfg-dora",
        "tokenflow.security.users[0].password={noop}dora-secret-1",
        "tokenflow.security.users[0].roles=designer,operator",
        "tokenflow.security.users[0].display-name=Dora Designer",
        "tokenflow.security.users[1].username=cfg-abe",
        "tokenflow.security.users[1].password=abe-plain-secret-2",
        "tokenflow.security.users[1].roles=APPROVER"})
class ConfiguredUsersIntegrationTests {

    @Autowired
    MockMvc mvc;
    @Autowired
    UserAccountRepository users;
    @Autowired
    UserAccountsInitializer initializer;

    @Test
    void configuredUserSignsInWithTheConfiguredRoles() throws Exception {
        mvc.perform(formLogin("/login").user("cfg-dora").password("dora-secret-1"))
                .andExpect(authenticated().withAuthentication(authentication ->
                        assertThat(authentication.getAuthorities()).extracting(GrantedAuthority::getAuthority)
                                .contains("ROLE_DESIGNER", "ROLE_OPERATOR")
                                .doesNotContain("ROLE_ADMIN", "ROLE_APPROVER")));
        UserAccount dora = users.findById("cfg-dora").orElseThrow();
        assertThat(dora.source()).isEqualTo(UserSource.CONFIGURATION);
        assertThat(dora.displayName()).contains("Dora Designer");
    }

    @Test
    void plainConfiguredPasswordIsStoredOnlyAsBcryptHash() throws Exception {
        assertThat(users.findById("cfg-abe").orElseThrow().passwordHash())
                .startsWith("{bcrypt}").doesNotContain("abe-plain-secret-2");

        TestAccounts.signIn(mvc, "cfg-abe", "abe-plain-secret-2");
        mvc.perform(formLogin("/login").user("cfg-abe").password("wrong")).andExpect(unauthenticated());
    }

    @Test
    void configuredRolesGovernWhatTheApiAllows() throws Exception {
        MockHttpSession abe = TestAccounts.signIn(mvc, "cfg-abe", "abe-plain-secret-2");

        mvc.perform(get("/api/v1/workflows").session(abe)).andExpect(status().isOk());
        mvc.perform(get("/actuator/metrics").session(abe))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("ROLE_ADMIN")));
    }

    @Test
    void reinitialisingLeavesConfiguredUsersUntouched() {
        UserAccount before = users.findById("cfg-abe").orElseThrow();

        initializer.initialise();

        UserAccount after = users.findById("cfg-abe").orElseThrow();
        assertThat(after.passwordHash()).isEqualTo(before.passwordHash());
        assertThat(after.updatedAt()).isEqualTo(before.updatedAt());
    }

    @Test
    @Transactional
    void configuredUsersPreventTheGeneratedAdmin(CapturedOutput output) {
        users.deleteAllInBatch();
        int printedBefore = output.getAll().length();

        initializer.initialise();

        assertThat(users.findAll()).extracting(UserAccount::username)
                .containsExactlyInAnyOrder("cfg-dora", "cfg-abe");
        assertThat(output.getAll().substring(printedBefore)).doesNotContain("Using generated password");
    }
}
