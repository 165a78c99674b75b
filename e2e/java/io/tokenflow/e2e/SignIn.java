package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;

/** Signs in through the login form, as a person would. */
final class SignIn {

    static final String USERNAME = "dana";
    static final String PASSWORD = "dana-pass-123";

    private SignIn() {
    }

    /** Opens {@code path}, signs in on the login page it leads to, and waits for the page asked for. */
    static void andOpen(Page page, String baseUrl, String path) {
        page.navigate(baseUrl + path);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Sign in to Tokenflow")))
                .isVisible();
        page.getByLabel("Username").fill(USERNAME);
        page.getByLabel("Password").fill(PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        assertThat(page.getByText("Signed in as " + USERNAME)).isVisible();
    }
}
