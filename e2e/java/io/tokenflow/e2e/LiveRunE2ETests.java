package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.UUID;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.RequestOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live run page and runs list in a real browser: a run started through the API is watched node by node until it
 * completes, without reloading; the time-travel slider shows an earlier state; the runs list follows runs live.
 */
@BrowserTest
class LiveRunE2ETests {

    /** README screenshots are refreshed with -Dtokenflow.screenshots=docs/screenshots; otherwise they go to target/. */
    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void watchesNodesChangeLiveUntilTheRunCompletesAndTravelsBackInTime(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "live-%s", "nodes": [
                  {"id": "fetch", "type": "function", "config": {"function": "sleep", "args": {"ms": 2500}}},
                  {"id": "quick", "type": "function", "config": {"function": "sleep", "args": {"ms": 100}}},
                  {"id": "slow", "type": "function", "config": {"function": "gate"}},
                  {"id": "merge", "type": "function", "config": {"function": "echo"}, "wait_for_all": true}],
                 "edges": [{"from": "fetch", "to": "quick"}, {"from": "fetch", "to": "slow"},
                           {"from": "quick", "to": "merge"}, {"from": "slow", "to": "merge"}]}""");
        UUID run = startRun(page, workflow, "{\"order\": 42}");

        page.navigate(base() + "/runs/" + run);
        // the event the page was drawn at: live pushes move the slider on from it, and travelling back to exactly it
        // must work too
        String drawnAt = page.locator("#seq-slider").getAttribute("value");
        assertThat(page.locator("#live-status")).hasText("Live");
        Locator merge = node(page, "merge");
        assertThat(merge).hasAttribute("data-status", "not-reached");
        assertThat(merge).hasAttribute("data-join", "1/2");
        assertThat(node(page, "slow")).hasAttribute("data-status", "running");
        assertThat(page.locator("#run-summary .counter")).hasText("2");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("live-run.png")).setFullPage(true));
        Gates.open(run);

        assertThat(merge).hasAttribute("data-status", "completed");
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        assertThat(page.locator("#run-summary .counter")).hasText("0");
        assertThat(page.locator("#run-timeline li").first()).containsText("run completed");
        long lastSeq = Long.parseLong(page.locator("#run-summary").getAttribute("data-last-seq"));

        merge.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON).click();
        assertThat(page.locator("#node-detail")).containsText("Iteration 0");
        assertThat(page.locator("#node-detail pre.json").first()).containsText("\"quick\"");

        page.locator("#seq-slider").evaluate("(slider, seq) => { slider.value = seq; "
                + "slider.dispatchEvent(new Event('input', {bubbles: true})); }", drawnAt);
        assertThat(page.locator("#run-summary")).hasAttribute("data-seq", drawnAt);
        assertThat(page.locator("#run-summary .status")).hasText("running");
        assertThat(page.locator("#run-summary")).containsText("Showing the run as it was after event " + drawnAt
                + " of " + lastSeq);
        assertThat(merge).hasAttribute("data-status", "not-reached");
        assertThat(page.locator("#live-status")).hasText("Paused (time travel)");

        page.locator("#back-to-live").click();
        assertThat(page.locator("#run-summary")).hasAttribute("data-seq", Long.toString(lastSeq));
        assertThat(merge).hasAttribute("data-status", "completed");
        assertThat(page.locator("#live-status")).hasText("Live");
    }

    @Test
    void theRunsListShowsNewRunsAndTheirProgressLive(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "live-list-%s", "nodes": [
                  {"id": "A", "type": "function", "config": {"function": "gate"}},
                  {"id": "B", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "A", "to": "B"}]}""");
        page.navigate(base() + "/runs?workflow=" + workflow);
        assertThat(page.locator("#live-status")).hasText("Live");
        assertThat(page.getByText("No runs match these filters.")).isVisible();

        UUID run = startRun(page, workflow, "{}");
        Locator row = page.locator("#run-" + run);
        assertThat(row).containsText("running");
        assertThat(row.locator(".run-counter")).hasText("1");
        Gates.open(run);
        assertThat(row).containsText("completed");
        assertThat(row.locator(".run-counter")).hasText("0");

        String other = createWorkflow(page, """
                {"name": "live-other-%s", "nodes": [{"id": "A", "type": "function", "config": {"function": "echo"}}],
                 "edges": []}""");
        UUID unlisted = startRun(page, other, "{}");
        UUID second = startRun(page, workflow, "{}");
        assertThat(page.locator("#run-" + second)).containsText("running");
        assertThat(page.locator("#run-table tbody tr")).hasCount(2);
        assertThat(page.locator("#run-" + unlisted)).hasCount(0);
        Gates.open(second);
        assertThat(page.locator("#run-" + second)).containsText("completed");
    }

    @Test
    void showsTheAttemptOfARetryingNodeAndTheWaitBeforeIt(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "retrying-%s", "nodes": [
                  {"id": "charge", "type": "function", "config": {"function": "fail",
                   "args": {"kind": "transient", "message": "gateway busy"}},
                   "retry": {"max_attempts": 3, "backoff_ms": 6000, "jitter": 0}}]}""");
        UUID run = startRun(page, workflow, "{}");

        page.navigate(base() + "/runs/" + run);
        Locator charge = node(page, "charge");
        assertThat(charge).hasAttribute("data-attempt", "2/3");
        assertThat(charge.locator(".badge-retry")).containsText("attempt 2/3");
        assertThat(charge.locator(".badge-retry")).containsText("next in");
        assertThat(charge).hasAttribute("data-status", "dispatched");
        assertThat(page.locator("#run-timeline-list")).containsText("retrying");
    }

    @Test
    void anOperatorCancelsARunningRunFromItsPage(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "cancel-me-%s", "nodes": [
                  {"id": "wait", "type": "function", "config": {"function": "gate"}}]}""");
        UUID run = startRun(page, workflow, "{}");

        page.navigate(base() + "/runs/" + run);
        Locator cancel = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Cancel run"));
        assertThat(cancel).isVisible();
        // cancelling cannot be undone: the page asks first, and saying no leaves the run running
        page.onceDialog(dialog -> dialog.dismiss());
        cancel.click();
        assertThat(page.locator("#run-summary")).hasAttribute("data-status", "RUNNING");
        page.onceDialog(dialog -> {
            assertThat(dialog.message()).contains("Cancel this run?");
            dialog.accept();
        });
        cancel.click();
        assertThat(page.locator("#run-summary")).hasAttribute("data-status", "CANCELLED");
        assertThat(page.locator(".notice")).containsText("Cancelled the run");
        assertThat(cancel).isHidden();
    }

    @Test
    void showsAMapsProgressLiveUntilEveryElementIsDone(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "map-%s", "nodes": [
                  {"id": "each", "type": "function", "config": {"function": "gate"},
                   "map": {"items": "${workflow.input.orders}", "concurrency": 2}},
                  {"id": "after", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "each", "to": "after"}]}""");
        UUID run = startRun(page, workflow, "{\"orders\": [1, 2, 3, 4, 5, 6]}");

        page.navigate(base() + "/runs/" + run);
        Locator each = node(page, "each");
        assertThat(each).hasAttribute("data-status", "running");
        assertThat(each.locator(".badge-map")).hasText("0/6 done");
        assertThat(page.locator("#run-timeline")).containsText("map of 6 elements, 2 at a time");
        Gates.open(run);

        assertThat(each).hasAttribute("data-status", "completed");
        assertThat(each.locator(".badge-map")).hasCount(0);
        assertThat(node(page, "after")).hasAttribute("data-status", "completed");
        assertThat(page.locator("#run-timeline")).containsText("every element done (6 completed, 0 failed)");
    }

    @Test
    void showsATimersAndASignalsWaitLiveUntilTheyEnd(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "waits-%s", "nodes": [
                  {"id": "pause", "type": "wait", "wait": {"duration": "PT3S"}},
                  {"id": "paid", "type": "signal", "signal": {"name": "payment", "key": "${workflow.input.order}",
                   "timeout": "PT4S", "timeout_path": ["remind"]}},
                  {"id": "remind", "type": "function", "config": {"function": "echo"}}]}""");
        UUID run = startRun(page, workflow, "{\"order\": \"o-42\"}");

        page.navigate(base() + "/runs/" + run);
        Locator pause = node(page, "pause");
        assertThat(pause).hasAttribute("data-status", "running");
        assertThat(pause.locator(".badge-waiting")).containsText("waiting until ");
        assertThat(pause.locator(".badge-waiting")).containsText(" UTC");
        String until = pause.locator(".badge-waiting").getAttribute("data-waiting-until");
        assertThat(Long.parseLong(until)).isGreaterThan(System.currentTimeMillis() - 3_000);
        assertThat(node(page, "paid").locator(".badge-waiting"))
                .containsText("waiting for signal 'payment' (key o-42) until ");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("waits.png")).setFullPage(true));

        assertThat(pause).hasAttribute("data-status", "completed");
        assertThat(pause.locator(".badge-waiting")).hasCount(0);
        assertThat(node(page, "remind")).hasAttribute("data-status", "completed");
        assertThat(node(page, "paid").locator(".badge-waiting")).hasCount(0);
        assertThat(page.locator("#run-summary .status")).hasText("completed");
    }

    private Locator node(Page page, String id) {
        return page.locator("#run-nodes li[data-node='" + id + "']");
    }

    private String createWorkflow(Page page, String template) {
        String name = template.substring(template.indexOf("\"name\": \"") + 9, template.indexOf("%s"))
                + UUID.randomUUID().toString().substring(0, 8);
        String body = template.replaceFirst("\"name\": \"[^\"]*%s\"", "\"name\": \"" + name + "\"");
        APIResponse response = api(page, "/api/v1/workflows", body);
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return name;
    }

    private UUID startRun(Page page, String workflow, String inputs) {
        APIResponse response = api(page, "/api/v1/runs", "{\"workflow\": \"" + workflow + "\", \"inputs\": "
                + inputs + "}");
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        JsonNode started = JSON.readTree(response.text());
        return UUID.fromString(started.get("id").asString());
    }

    private APIResponse api(Page page, String path, String body) {
        String credentials = Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        return page.request().post(base() + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", "Basic " + credentials));
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
