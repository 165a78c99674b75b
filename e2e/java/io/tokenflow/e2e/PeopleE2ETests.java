package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.UUID;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The people page in a real browser: an admin adds a person (a password is generated and shown once), the person signs
 * in with it in a browser of their own, the admin disables them and their open page goes back to the sign-in form;
 * the audit log page shows it all. A refused password is shown beside the form.
 */
@BrowserTest
class PeopleE2ETests {

    @LocalServerPort
    int port;

    @Test
    void anAdminAddsAPersonWhoSignsInAndIsThenDisabledAndTheAuditLogShowsIt(Page page) {
        SignIn.asUser(page, base(), "/users", SignIn.ADMIN, SignIn.ADMIN_PASSWORD);
        assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("People"))).isVisible();
        String erin = "erin-" + UUID.randomUUID().toString().substring(0, 6);

        Locator create = page.locator("#create-user");
        create.getByLabel("Username").fill(erin);
        create.getByLabel("Display name").fill("Erin Approver");
        create.getByLabel("Password (empty: generate one)").fill("short");
        create.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add")).click();
        assertThat(page.locator("#create-user .field-error")).containsText("at least 12 characters");

        create.getByLabel("Username").fill(erin);
        create.getByLabel("Display name").fill("Erin Approver");
        create.locator("input[name=roles][value=approver]").check();
        create.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add")).click();
        assertThat(page.locator("#generated-password")).containsText(erin);
        String password = page.locator("#generated-password code").textContent().trim();
        Locator row = page.locator("#users-table tr[data-username='" + erin + "']");
        assertThat(row).containsText("admin");

        Browser browser = page.context().browser();
        try (BrowserContext theirs = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 800))) {
            Page erinsPage = theirs.newPage();
            SignIn.asUser(erinsPage, base(), "/approvals", erin, password);
            assertThat(erinsPage.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("People"))).hasCount(0);

            row.locator("input[name=enabled]").uncheck();
            row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Save")).click();
            assertThat(page.locator(".notice")).containsText("Saved " + erin);
            assertThat(page.locator("#users-table tr[data-username='" + erin + "'] input[name=enabled]"))
                    .not().isChecked();

            erinsPage.navigate(base() + "/approvals");
            assertThat(erinsPage.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions()
                    .setName("Sign in to Tokenflow"))).isVisible();
        }

        page.navigate(base() + "/audit?actor=" + SignIn.ADMIN);
        Locator audit = page.locator("#audit-table tbody");
        assertThat(audit).containsText("user.created");
        assertThat(audit).containsText("user.changed");
        assertThat(audit).containsText(erin);
        page.navigate(base() + "/audit?actor=" + erin);
        assertThat(page.locator("#audit-table tbody")).containsText("sign-in");
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
