package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.RequestOptions;

/** Signs in through the login form, as a person would. */
final class SignIn {

    static final String USERNAME = "dana";
    static final String PASSWORD = "dana-pass-123";
    static final String ADMIN = "ada";
    static final String ADMIN_PASSWORD = "ada-pass-12345";

    private SignIn() {
    }

    /** Opens {@code path}, signs in on the login page it leads to, and waits for the page asked for. */
    static void andOpen(Page page, String baseUrl, String path) {
        asUser(page, baseUrl, path, USERNAME, PASSWORD);
    }

    /** {@link #andOpen} as another configured user. */
    static void asUser(Page page, String baseUrl, String path, String username, String password) {
        page.navigate(baseUrl + path);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Sign in to Tokenflow")))
                .isVisible();
        page.getByLabel("Username").fill(username);
        page.getByLabel("Password").fill(password);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        assertThat(page.getByText("Signed in as " + username)).isVisible();
    }

    /** {@code POST path} with a JSON body on the page's request context, as {@code user} with HTTP Basic. */
    static APIResponse post(Page page, String baseUrl, String user, String password, String path, String body) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        return page.request().post(baseUrl + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", "Basic " + credentials));
    }
}
