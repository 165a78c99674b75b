package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.RequestOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.json.JsonMapper;

/**
 * The dead-letter page in a real browser: a task that failed for good parks its run; the operator finds the entry on
 * {@code /dlq}, reprocesses it with an edited input, and the run completes.
 */
@BrowserTest
class DeadLettersE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** README screenshots are refreshed with -Dtokenflow.screenshots=docs/screenshots; otherwise they go to target/. */
    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));

    @LocalServerPort
    int port;

    @Test
    void reprocessesAParkedTaskWithAnEditedInputAndItsRunCompletes(Page page) {
        SignIn.andOpen(page, base(), "/dlq");
        String workflow = createParkingWorkflow(page, "dlq-page-");
        APIResponse started = api(page, "/api/v1/runs", "{\"workflow\": \"" + workflow
                + "\", \"inputs\": {\"ok\": false}}");
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        String run = JSON.readTree(started.text()).get("id").asString();

        // the supervisor writes the entry from the event log within a fraction of a second
        await().atMost(Duration.ofSeconds(30)).until(() -> JSON.readTree(page.request().get(base()
                + "/api/v1/dlq?workflow=" + workflow, RequestOptions.create().setHeader("Authorization",
                "Basic " + credentials())).text()).size() == 1);
        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-nodes li[data-node='check'] .badge-parked"))
                .hasText("in the dead-letter queue");
        page.navigate(base() + "/dlq?workflow=" + workflow);
        Locator row = page.locator("#dlq-table tbody tr");
        assertThat(row).hasCount(1);
        assertThat(row).containsText("check");
        assertThat(row).containsText("not_ok");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("dead-letters.png")).setFullPage(true));
        row.locator("textarea[name=input]").fill("{\"ok\": true, \"note\": \"checked by hand\"}");
        row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Reprocess")).click();
        assertThat(page.locator(".notice")).containsText("Reprocessed node check");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-summary")).hasAttribute("data-status", "COMPLETED");
        assertThat(page.locator("#run-nodes .badge-parked")).hasCount(0);
        page.navigate(base() + "/dlq?status=resolved&workflow=" + workflow);
        assertThat(page.locator("#dlq-table tbody tr")).containsText("requeued by " + SignIn.USERNAME);
    }

    /**
     * The list with more entries than one page: the pager walks them keeping the filters, an entry is discarded from
     * a later page (and the page stays), and the resolved filter shows it with who did it.
     */
    @Test
    void pagesThroughEntriesKeepingTheFiltersAndDiscardsOneFromTheSecondPage(Page page) {
        SignIn.andOpen(page, base(), "/dlq");
        String workflow = createParkingWorkflow(page, "dlq-list-");
        for (int i = 0; i < 27; i++) {
            APIResponse started = api(page, "/api/v1/runs", "{\"workflow\": \"" + workflow
                    + "\", \"inputs\": {\"ok\": false}}");
            assertThat(started.status()).as(started.text()).isEqualTo(201);
        }
        Locator pager = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("dead letters pages"));
        // the supervisor writes each entry from the event log within a fraction of a second
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            page.navigate(base() + "/dlq?workflow=" + workflow);
            return pager.count() > 0 && pager.textContent().contains("1–25 of 27 dead letters");
        });
        assertThat(page.locator("#dlq-table tbody tr")).hasCount(25);

        pager.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Next")).click();
        assertThat(page).hasURL(Pattern.compile("status=open&workflow=" + workflow + "&page=2"));
        assertThat(pager).containsText("26–27 of 27 dead letters");
        Locator rows = page.locator("#dlq-table tbody tr");
        assertThat(rows).hasCount(2);
        rows.first().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Discard")).click();
        assertThat(page.locator(".notice")).containsText("Discarded");
        assertThat(page).hasURL(Pattern.compile("page=2")); // back on the list it was discarded from

        page.getByLabel("Status").selectOption("resolved");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Filter")).click();
        assertThat(page).hasURL(Pattern.compile("status=resolved&workflow=" + workflow));
        // the entry's row says so once the supervisor wrote the discard's event
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            page.reload();
            return rows.count() == 1;
        });
        assertThat(rows.first()).containsText("discarded by " + SignIn.USERNAME);
        assertThat(pager).containsText("1–1 of 1 dead letter");
    }

    /** A workflow whose first node parks its task in the dead-letter queue unless the input says {@code ok}. */
    private String createParkingWorkflow(Page page, String prefix) {
        String workflow = prefix + UUID.randomUUID().toString().substring(0, 8);
        APIResponse created = api(page, "/api/v1/workflows", """
                {"name": "%s", "nodes": [
                  {"id": "check", "type": "function", "config": {"function": "approved"},
                   "on_failure": {"action": "dlq"}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "check", "to": "done"}]}""".formatted(workflow));
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        return workflow;
    }

    private APIResponse api(Page page, String path, String body) {
        return page.request().post(base() + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", "Basic " + credentials()));
    }

    private static String credentials() {
        return Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
