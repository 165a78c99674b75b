package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The workflows list with more workflows than fit one page: the newest change comes first (a workflow just created,
 * or one just given a new version), the pager walks the pages, and searching finds a workflow from a later page.
 */
@BrowserTest
class WorkflowsListE2ETests {

    @LocalServerPort
    int port;

    @Test
    void showsTheNewestChangeFirstPagesAndSearchesAcrossPages(Page page) {
        SignIn.andOpen(page, base(), "/workflows");
        String prefix = "paged-" + UUID.randomUUID().toString().substring(0, 6);
        for (int i = 0; i < 30; i++) {
            create(page, prefix + "-" + i, i == 3 ? "Invoices for the Nordic subsidiary" : "Batch " + i);
        }
        page.navigate(base() + "/workflows");
        Locator pager = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("workflows pages"));
        assertThat(pager).containsText(Pattern.compile("1–25 of \\d+ workflows"));
        Locator rows = page.locator("#workflow-table tbody tr");
        assertThat(rows).hasCount(25);
        assertThat(rows.first()).containsText(prefix + "-29");

        String newest = prefix + "-made-by-hand";
        Locator form = page.locator("#new-workflow");
        form.getByLabel("Name").fill(newest);
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create workflow")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(newest).setLevel(1)))
                .isVisible();
        mainNavigation(page);
        assertThat(rows.first().getByRole(AriaRole.LINK)).hasText(newest);

        pager.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Next")).click();
        assertThat(page).hasURL(Pattern.compile("/workflows\\?page=2$"));
        assertThat(pager).containsText(Pattern.compile("26–\\d+ of \\d+ workflows"));
        assertThat(rows.first()).containsText(prefix + "-5");
        assertThat(page.getByText(prefix + "-3", new Page.GetByTextOptions().setExact(true))).isVisible();
        pager.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Previous")).click();
        assertThat(rows.first().getByRole(AriaRole.LINK)).hasText(newest);

        page.getByLabel("Search workflows").pressSequentially("nordic subsid");
        assertThat(rows).hasCount(1);
        assertThat(rows.first().getByRole(AriaRole.LINK)).hasText(prefix + "-3");
        assertThat(page).hasURL(Pattern.compile("/workflows\\?q=nordic\\+subsid|/workflows\\?q=nordic%20subsid"));
        assertThat(pager).containsText("1–1 of 1 workflow");
        page.reload();
        assertThat(page.getByLabel("Search workflows")).hasValue("nordic subsid");
        assertThat(rows).hasCount(1);
    }

    private void create(Page page, String name, String description) {
        APIResponse created = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/workflows",
                "{\"name\": \"" + name + "\", \"description\": \"" + description + "\", \"nodes\": [{\"id\": \"A\", "
                        + "\"type\": \"function\", \"config\": {\"function\": \"noop\"}}]}");
        assertThat(created.status()).as(created.text()).isEqualTo(201);
    }

    private static void mainNavigation(Page page) {
        page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"))
                .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Workflows")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Workflows").setLevel(1)))
                .isVisible();
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
