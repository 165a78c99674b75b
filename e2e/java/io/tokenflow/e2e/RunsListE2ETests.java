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
        samples.strict(true);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> samples.take() && "RUNNING".equals(samples.last));
        assertThat(row.locator(".run-waiting")).hasText("awaiting approval");
        assertThat(runPage.locator("#run-approvals")).containsText("Approve enterprise deal");
        assertThat(row).containsText("not ended");
        String duration = row.locator(".run-duration").textContent();
        assertThat(row.locator(".run-duration")).not().hasText(duration); // it ticks while the run waits

        samples.strict(false);
        APIResponse decided = SignIn.post(list, base(), SignIn.USERNAME, SignIn.PASSWORD,
                "/api/v1/approvals/" + approvalId(runPage) + "/decide", "{\"decision\": \"approve\"}");
        assertThat(decided.status()).as(decided.text()).isEqualTo(200);
        // right after the decision, until both say completed, and a while after
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                .until(() -> samples.take() && "COMPLETED".equals(samples.last));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(samples::take);

        assertThat(samples.disagreements).as(String.join("\n", samples.trace)).isEmpty();
        System.out.printf("Runs list and run page: %d samples, the longest a page trailed the other: %d ms%n",
                samples.count, samples.longestLagNanos / 1_000_000);
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
     * Samples the list's row, the run page, then the row again. The two pages are two browsers' pushes, swapped each
     * at its own moment (the server pushes both in the same round), so at a change of state one may show the new
     * state a moment before the other: the run page must show what the row showed just before or just after, or else
     * one page trails the other — allowed for at most {@link #LAG}, and only while {@link #strict} is off (at the
     * start and at the decision; while the run waits nothing changes, so every sample must agree). A row that says
     * ended must say when, and one that does not, must not, at every sample.
     */
    private static final class Samples {

        /**
         * How long one page may trail the other at a change of state: the live pushes' round (100 ms) and the two
         * pages' swap times, with room for a busy machine.
         */
        private static final Duration LAG = Duration.ofMillis(500);

        private final Locator row;
        private final Locator summary;
        private final List<String> disagreements = new ArrayList<>();
        private final List<String> trace = new ArrayList<>();
        private final List<String> listStates = new ArrayList<>();
        private final List<String> pageStates = new ArrayList<>();
        private final long started = System.nanoTime();
        private long trailingSince = -1;
        private long longestLagNanos;
        private boolean strict;
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
            long now = System.nanoTime();
            count++;
            last = onPage;
            trace.add((now - started) / 1_000_000 + " ms: " + before + " | " + onPage + " | " + after);
            for (String state : List.of(before, after)) {
                boolean ended = state.endsWith("ended-at");
                if (ended != List.of("COMPLETED", "FAILED", "CANCELLED").contains(status(state))) {
                    disagreements.add("list row says " + state);
                    return false;
                }
            }
            remember(listStates, status(before));
            remember(listStates, status(after));
            remember(pageStates, onPage);
            if (onPage.equals(status(before)) || onPage.equals(status(after))) {
                if (trailingSince >= 0) {
                    longestLagNanos = Math.max(longestLagNanos, now - trailingSince);
                    trailingSince = -1;
                }
                return status(before).equals(status(after));
            }
            boolean trails = listStates.contains(onPage) || pageStates.contains(status(after));
            trailingSince = trailingSince < 0 ? now : trailingSince;
            if (strict || !trails || now - trailingSince > LAG.toNanos()) {
                disagreements.add("run page " + onPage + ", list " + before + " then " + after
                        + (strict ? " while nothing changes" : trails ? " for longer than " + LAG.toMillis() + " ms"
                        : " (a state the other page never showed)"));
            }
            return false;
        }

        /** Every sample from now on must agree (nothing changes meanwhile). */
        void strict(boolean strict) {
            this.strict = strict;
        }

        private static void remember(List<String> states, String state) {
            if (states.isEmpty() || !states.get(states.size() - 1).equals(state)) {
                states.add(state);
            }
        }

        /** Status and end as one read of the row (a live push swaps the row between two reads). */
        private String rowState() {
            return (String) row.evaluate("row => row.querySelector('.run-status').dataset.status"
                    + " + (row.querySelector('.run-ended time') ? ' ended-at' : ' not-ended')");
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
