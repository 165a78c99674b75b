package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A designer adds a trigger in the workflow's inspector: a schedule that does not parse is shown beside the field, the
 * fixed one is saved as a new version, and the workflow page lists it with its next fire.
 */
@BrowserTest
class TriggersE2ETests {

    @LocalServerPort
    int port;

    @Test
    void editsATriggerInTheDesignerAndSeesItsNextFireOnTheWorkflowPage(Page page) {
        String name = "triggered-" + UUID.randomUUID().toString().substring(0, 8);
        SignIn.andOpen(page, "http://localhost:" + port, "/workflows");
        page.getByLabel("Workflow JSON").fill("{\"name\": \"" + name + "\", \"nodes\": [{\"id\": \"a\", \"type\": "
                + "\"function\", \"config\": {\"function\": \"noop\"}}]}");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Import JSON")).click();
        assertThat(page.locator("#triggers")).containsText("declares no triggers");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
        new DesignerCanvas(page).ready();

        Locator triggers = page.locator("#inspector").getByLabel("Triggers");
        triggers.fill("[{\"id\": \"nightly\", \"type\": \"cron\", \"cron\": \"0 0 25 * * *\", "
                + "\"time_zone\": \"Europe/Berlin\"}]");
        assertThat(page.locator("#inspector [data-field='/triggers'] .field-problems"))
                .containsText("does not parse");
        assertThat(triggers).hasAttribute("aria-invalid", "true");
        triggers.fill("[{\"id\": \"nightly\", \"type\": \"cron\", \"cron\": \"0 0 2 * * *\", "
                + "\"time_zone\": \"Europe/Berlin\", \"missed\": \"fire_once\"}]");
        assertThat(page.locator("#inspector [data-scope='/triggers'] .field-problems li")).hasCount(0);
        page.waitForFunction("() => (window.tokenflowDesigner.draft.triggers || []).length === 1 "
                + "&& window.tokenflowDesigner.draft.triggers[0].cron === '0 0 2 * * *'");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save").setExact(true)).click();
        assertThat(page.locator("#save-state")).hasText("Saved · version 2");

        page.navigate("http://localhost:" + port + "/workflows/" + name);
        Locator row = page.locator("#trigger-nightly");
        assertThat(row).containsText("0 0 2 * * *");
        assertThat(row).containsText("in Europe/Berlin, missed ticks: fire_once");
        assertThat(row.locator("time").first()).hasText(Pattern.compile("T02:00(:00)?\\+0[12]:00$"));
        assertThat(page.locator("#triggers")).containsText("newest version (2)");
    }
}
