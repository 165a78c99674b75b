package io.tokenflow.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestBuilders.formLogin;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.csrf;
import static org.springframework.security.test.web.servlet.response.SecurityMockMvcResultMatchers.unauthenticated;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.mock.web.MockHttpSession;
import org.springframework.test.web.servlet.MockMvc;

import io.tokenflow.IntegrationTest;

@IntegrationTest
@AutoConfigureMockMvc
class LoginPageIntegrationTests {

    @Autowired
    MockMvc mvc;
    @Autowired
    UserAccountRepository users;
    @Autowired
    Clock clock;

    @Test
    void rendersLabelledFormWithCsrfTokenAndMetaTags() throws Exception {
        mvc.perform(get("/login"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<label for=\"username\">"),
                        containsString("<label for=\"password\">"),
                        containsString("autocomplete=\"current-password\""),
                        containsString("name=\"_csrf\""),
                        containsString("<meta name=\"_csrf_header\" content=\"X-CSRF-TOKEN\">"),
                        not(containsString("role=\"alert\"")))));
    }

    @Test
    void sendsTheContentSecurityReferrerAndPermissionsPolicies() throws Exception {
        for (String path : new String[] {"/login", "/api/v1/schema/workflow"}) {
            mvc.perform(get(path))
                    .andExpect(header().string("Content-Security-Policy", SecurityConfiguration.CONTENT_SECURITY_POLICY))
                    .andExpect(header().string("Content-Security-Policy", containsString("script-src 'self';")))
                    .andExpect(header().string("Referrer-Policy", "strict-origin-when-cross-origin"))
                    .andExpect(header().string("Permissions-Policy", containsString("camera=()")));
        }
    }

    @Test
    void servesScriptsAndStylesUnderContentHashedUrlsCachedForAYearAndNeverCachesAPage() throws Exception {
        String page = mvc.perform(get("/login")).andExpect(status().isOk())
                .andExpect(header().string("Cache-Control", containsString("no-store")))
                .andReturn().getResponse().getContentAsString();
        // the favicon too: asked for before signing in, it must not need a session (the sign-in would then lead to it)
        for (String pattern : new String[] {"/assets/css/tokenflow-[0-9a-f]{32}\\.css",
                "/assets/js/theme-[0-9a-f]{32}\\.js", "/assets/favicon-[0-9a-f]{32}\\.svg"}) {
            Matcher link = Pattern.compile(pattern).matcher(page);
            assertThat(link.find()).as("Expected a link matching %s in the sign-in page", pattern).isTrue();
            mvc.perform(get(link.group())).andExpect(status().isOk())
                    .andExpect(header().string("Cache-Control", "max-age=31536000, public"));
        }
    }

    @Test
    void showsErrorNextToTheFormAfterBadCredentials() throws Exception {
        String designer = new TestAccounts(users, clock).create(Role.DESIGNER);

        mvc.perform(formLogin("/login").user(designer).password("wrong"))
                .andExpect(unauthenticated())
                .andExpect(redirectedUrl("/login?error"));
        mvc.perform(get("/login").param("error", ""))
                .andExpect(content().string(allOf(
                        containsString("role=\"alert\""),
                        containsString("Wrong username or password"),
                        containsString("aria-describedby=\"login-error\""))));
    }

    @Test
    void saysWhenCredentialsCannotBeCheckedNow() throws Exception {
        mvc.perform(get("/login").param("unavailable", ""))
                .andExpect(content().string(allOf(
                        containsString("id=\"login-unavailable\""),
                        containsString("cannot be checked right now"),
                        not(containsString("Wrong username or password")))));
    }

    @Test
    void signsOutBackToTheLoginPage() throws Exception {
        String designer = new TestAccounts(users, clock).create(Role.DESIGNER);
        MockHttpSession session = TestAccounts.signIn(mvc, designer, TestAccounts.PASSWORD);

        mvc.perform(post("/logout").session(session).with(csrf())).andExpect(redirectedUrl("/login?logout"));
        mvc.perform(get("/workflows").session(session)).andExpect(redirectedUrl("/login"));
    }
}
