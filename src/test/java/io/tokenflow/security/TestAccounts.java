package io.tokenflow.security;

import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.authenticated;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.MockMvc;

/** People for integration tests, each with a unique name, since all tests of a JVM share one database. */
final class TestAccounts {

    static final String PASSWORD = "correct-horse-battery-staple";

    private final UserAccountRepository users;
    private final Clock clock;

    TestAccounts(UserAccountRepository users, Clock clock) {
        this.users = users;
        this.clock = clock;
    }

    String create(Role... roles) {
        String username = "test-" + UUID.randomUUID().toString().substring(0, 13);
        users.save(new UserAccount(username, "{noop}" + PASSWORD, List.of(roles), null, List.of("default"), UserSource.ADMIN,
                clock.instant()));
        return username;
    }

    /** Signs {@code username} in through the login form and returns the authenticated session. */
    static MockHttpSession signIn(MockMvc mvc, String username, String password) throws Exception {
        return (MockHttpSession) mvc.perform(formLogin("/login").user(username).password(password))
                .andExpect(authenticated().withUsername(username))
                .andReturn().getRequest().getSession(false);
    }
}
