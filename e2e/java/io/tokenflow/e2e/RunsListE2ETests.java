package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tokenflow.TestWorkflows;
import tools.jackson.databind.json.JsonMapper;

/**
 * The runs list as an operator lives it: a run waiting for a person reads the same on the list as on its page at
 * every moment (right after its start, while it waits, right after the decision), with a duration that ticks; and
 * the list pages and filters through its URL.
 */
@BrowserTest
class RunsListE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void theListAndTheRunPageAgreeOnStatusAtEverySampleWhileARunWaitsForApproval(Page list) {
        SignIn.andOpen(list, base(), "/runs");
        String workflow = createWorkflow(list, "valid/hitl-approval");
        list.navigate(base() + "/runs?workflow=" + workflow);
        assertThat(list.locator("#live-status")).hasText("Live");
        Page runPage = list.context().newPage();

        UUID run = startRun(list, workflow, "{\"deal_value\": 250000}");
        Locator row = list.locator("#run-" + run);
        assertThat(row).isVisible();
        runPage.navigate(base() + "/runs/" + run);
        assertThat(runPage.locator("#live-status")).hasText("Live");
        Samples samples = new Samples(row, runPage.locator("#run-summary"));

        // right after the start, until the run waits at the human node: every sample agrees
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> samples.take() && row.locator(".run-waiting").count() > 0);
        // while it waits: the same state on both pages, sampled for three seconds
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> samples.take() && "RUNNING".equals(samples.last));
        assertThat(row.locator(".run-waiting")).hasText("awaiting approval");
        assertThat(runPage.locator("#run-approvals")).containsText("Approve enterprise deal");
        assertThat(row).containsText("not ended");
        String duration = row.locator(".run-duration").textContent();
        assertThat(row.locator(".run-duration")).not().hasText(duration); // it ticks while the run waits

        APIResponse decided = SignIn.post(list, base(), SignIn.USERNAME, SignIn.PASSWORD,
                "/api/v1/approvals/" + approvalId(runPage) + "/decide", "{\"decision\": \"approve\"}");
        assertThat(decided.status()).as(decided.text()).isEqualTo(200);
        // right after the decision, until both say completed, and a while after
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> samples.take() && "COMPLETED".equals(samples.last));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(samples::take);

        assertThat(samples.disagreements).isEmpty();
        assertThat(samples.count).isGreaterThan(20);
        assertThat(row.locator(".run-status .status")).hasText("completed");
        assertThat(row.locator(".run-waiting")).hasCount(0);
        assertThat(row.locator("time")).hasCount(2); // created and ended
        String ended = row.locator(".run-duration").textContent();
        assertThat(runPage.locator("#run-summary .status")).hasText("completed");
        list.reload();
        assertThat(list.locator("#run-" + run + " .run-duration")).hasText(ended); // stopped at the end
    }

    @Test
    void pagesAndFiltersRunsThroughTheUrl(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, "valid/sequential");
        List<UUID> runs = new ArrayList<>();
        for (int i = 0; i < 28; i++) {
            runs.add(startRun(page, workflow, "{}"));
        }
        Locator pager = page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("runs pages"));
        // the runs end on their own, each soon after its start
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            page.navigate(base() + "/runs?status=COMPLETED&workflow=" + workflow);
            return pager.count() > 0 && pager.textContent().contains("of 28 runs");
        });
        page.navigate(base() + "/runs");
        page.getByLabel("Workflow").fill(workflow);
        page.getByLabel("Status").selectOption("completed".toUpperCase());
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Filter")).click();
        assertThat(page).hasURL(Pattern.compile("status=COMPLETED&workflow=" + workflow));
        assertThat(pager).containsText("1–25 of 28 runs");
        assertThat(pager).containsText("Page 1 of 2");
        assertThat(page.locator("#run-table tbody tr").first()).containsText(runs.get(27).toString());

        pager.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Next")).click();
        assertThat(page).hasURL(Pattern.compile("page=2"));
        assertThat(pager).containsText("26–28 of 28 runs");
        assertThat(page.locator("#run-table tbody tr")).hasCount(3);
        assertThat(page.locator("#run-table tbody tr").last()).containsText(runs.get(0).toString());
        assertThat(page.getByLabel("Workflow")).hasValue(workflow);

        page.getByLabel("Started since").fill("2999-01-01T00:00");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Filter")).click();
        assertThat(page.getByText("No runs match these filters.")).isVisible();
        assertThat(pager).hasCount(0);
        page.navigate(base() + "/runs?since=yesterday");
        assertThat(page.getByRole(AriaRole.ALERT)).hasText("Expected 'started since' as a date (2026-11-28) or date "
                + "and time (2026-11-28T09:30), but found 'yesterday'");
        page.navigate(base() + "/runs?page=0");
        assertThat(page.locator("#problem")).containsText("Expected page to be a whole number from 1, but found '0'");
    }

    /**
     * Samples the list's row, the run page, then the row again: the run page must show what the row showed just
     * before or just after (both pages move on live, each at its own moment), and a row that says ended must say
     * when, and one that does not, must not.
     */
    private static final class Samples {

        private final Locator row;
        private final Locator summary;
        private final List<String> disagreements = new ArrayList<>();
        private int count;
        private String last;

        Samples(Locator row, Locator summary) {
            this.row = row;
            this.summary = summary;
        }

        boolean take() {
            String before = rowState();
            String onPage = summary.getAttribute("data-status");
            String after = rowState();
            count++;
            last = onPage;
            if (!onPage.equals(status(before)) && !onPage.equals(status(after))) {
                disagreements.add("run page " + onPage + ", list " + before + " then " + after);
                return false;
            }
            for (String state : List.of(before, after)) {
                boolean ended = state.endsWith("ended-at");
                if (ended != List.of("COMPLETED", "FAILED", "CANCELLED").contains(status(state))) {
                    disagreements.add("list row says " + state);
                    return false;
                }
            }
            return status(before).equals(status(after));
        }

        private String rowState() {
            Locator status = row.locator(".run-status");
            boolean ended = row.locator(".run-ended time").count() > 0;
            return status.getAttribute("data-status") + (ended ? " ended-at" : " not-ended");
        }

        private static String status(String state) {
            return state.substring(0, state.indexOf(' '));
        }
    }

    private String approvalId(Page runPage) {
        return runPage.locator("#run-approvals li[data-approval-id]").first().getAttribute("data-approval-id");
    }

    private String createWorkflow(Page page, String fixture) {
        String name = TestWorkflows.unique("runs-list");
        APIResponse created = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/workflows",
                TestWorkflows.fixture(fixture, name));
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        return name;
    }

    private UUID startRun(Page page, String workflow, String inputs) {
        APIResponse started = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/runs",
                "{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}");
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        return UUID.fromString(JSON.readTree(started.text()).get("id").asString());
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
