package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.UUID;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Tenants in a real browser: an admin adds a tenant and a person in two tenants on the people page; the person signs
 * in, sees the workflow they made in the tenant they start in, switches tenant in the page header and no longer sees
 * it, and switches back.
 */
@BrowserTest
class TenantsE2ETests {

    @LocalServerPort
    int port;

    @Test
    void aPersonInTwoTenantsSwitchesBetweenThemAndSeesOnlyEachTenantsWorkflows(Page page) {
        SignIn.asUser(page, base(), "/users", SignIn.ADMIN, SignIn.ADMIN_PASSWORD);
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String blue = "blue-" + suffix;

        Locator tenant = page.locator("#create-tenant");
        tenant.getByLabel("Id").fill(blue);
        tenant.getByLabel("Name").fill("Blue team " + suffix);
        tenant.getByLabel("Most runs in flight").fill("5");
        tenant.getByLabel("Most hops per minute").fill("600");
        tenant.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add tenant")).click();
        assertThat(page.locator(".notice")).containsText("Created tenant " + blue);
        assertThat(page.locator("#tenant-" + blue + " input[name=maxRunsInFlight]")).hasValue("5");
        assertThat(page.locator("#tenant-" + blue + " input[name=maxHopsPerMinute]")).hasValue("600");
        // the quota of hops is changed in the tenant's row
        page.getByLabel("most hops per minute of " + blue).fill("300");
        page.locator("#tenant-" + blue).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Save"))
                .click();
        assertThat(page.locator(".notice")).containsText("Saved tenant " + blue);
        assertThat(page.locator("#tenant-" + blue + " input[name=maxHopsPerMinute]")).hasValue("300");
        assertThat(page.locator("#tenant-" + blue + " input[name=maxRunsInFlight]")).hasValue("5");

        String finn = "finn-" + suffix;
        String password = "finn-password-" + suffix;
        Locator create = page.locator("#create-user");
        create.getByLabel("Username").fill(finn);
        create.locator("input[name=roles][value=designer]").check();
        create.locator("input[name=tenants][value=" + blue + "]").check();
        create.getByLabel("Password (empty: generate one)").fill(password);
        create.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add")).click();
        Locator row = page.locator("#users-table tr[data-username='" + finn + "']");
        assertThat(row.locator("input[name=tenants][value=" + blue + "]")).isChecked();
        assertThat(row.locator("input[name=tenants][value=default]")).isChecked();

        Browser browser = page.context().browser();
        try (BrowserContext theirs = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 800))) {
            Page finnsPage = theirs.newPage();
            SignIn.asUser(finnsPage, base(), "/workflows", finn, password);
            // a person acts in their first tenant until they switch; HTTP Basic requests act there too
            String first = finnsPage.getByLabel("Tenant").inputValue();
            String other = first.equals(blue) ? "default" : blue;
            String ours = "first-only-" + suffix;
            APIResponse created = SignIn.post(finnsPage, base(), finn, password, "/api/v1/workflows", """
                    {"name": "%s", "nodes": [{"id": "a", "type": "function", "config": {"function": "echo"}}],
                     "edges": []}""".formatted(ours));
            org.assertj.core.api.Assertions.assertThat(created.status()).as(created.text()).isEqualTo(201);
            finnsPage.navigate(base() + "/workflows?q=" + suffix);
            assertThat(finnsPage.locator("main")).containsText(ours);

            Locator switcher = finnsPage.locator("form.tenant-switcher");
            switcher.getByLabel("Tenant").selectOption(other);
            switcher.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Switch")).click();
            assertThat(finnsPage.getByLabel("Tenant")).hasValue(other);
            finnsPage.navigate(base() + "/workflows?q=" + suffix);
            assertThat(finnsPage.locator("main")).not().containsText(ours);

            finnsPage.locator("form.tenant-switcher").getByLabel("Tenant").selectOption(first);
            finnsPage.locator("form.tenant-switcher").getByRole(AriaRole.BUTTON,
                    new Locator.GetByRoleOptions().setName("Switch")).click();
            finnsPage.navigate(base() + "/workflows?q=" + suffix);
            assertThat(finnsPage.locator("main")).containsText(ours);
        }
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
