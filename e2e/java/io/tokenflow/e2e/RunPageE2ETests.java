package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.RequestOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.json.JsonMapper;

/**
 * The run page's graph at 1440×900 on a run that combines features: a branch whose untaken side fades, a human node
 * with a rejection path, a patch adding a node while the run waits, retries, a map and a timer drawn on the graph,
 * a duration that ticks, and no console warning or error throughout.
 */
@BrowserTest
class RunPageE2ETests {

    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The page's Cytoscape instance (Cytoscape keeps it on its container). */
    private static final String CY = "document.getElementById('run-graph')._cyreg.cy";

    @LocalServerPort
    int port;

    @Test
    void drawsThePathTakenTopToBottomAndAPatchedRunsAddedNodeLiveWithoutConsoleWarnings(Page page) {
        List<String> console = ConsoleProblems.of(page);
        page.setViewportSize(1440, 900);
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "run-page-%s", "nodes": [
                  {"id": "score", "type": "function", "config": {"function": "echo"},
                   "branch": {"type": "conditional", "rules": [
                     {"condition": {"type": "cel", "expression": "output.score >= 50"}, "next_nodes": ["review"]}],
                     "default": ["nurture"]}},
                  {"id": "nurture", "type": "function", "config": {"function": "echo"}},
                  {"id": "review", "type": "human", "human": {"title": "Approve the big order",
                   "approvers": ["dana"], "rejection_path": ["notify_rejected"]}},
                  {"id": "ship", "type": "function", "config": {"function": "echo"}},
                  {"id": "notify_rejected", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "score", "to": "review"}, {"from": "score", "to": "nurture"},
                           {"from": "review", "to": "ship"}]}""");
        UUID run = startRun(page, workflow, "{\"score\": 90}");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#live-status")).hasText("Live");
        // the run reaches its human node once a built-in worker has run 'score', which in a busy suite can take longer
        // than an assertion waits; once the approval is in the event log, the open page must show it live
        awaitEvent(page, run, "approval.requested");
        assertThat(node(page, "review")).hasAttribute("data-approval", "pending");
        var box = page.locator("#run-graph").boundingBox();
        assertThat(box.width).isGreaterThan(800);
        assertThat(box.height).isGreaterThan(450);
        // top to bottom, as the designer draws it; the graph fills its box
        assertThat(y(page, "score")).isLessThan(y(page, "review"));
        assertThat(y(page, "review")).isLessThan(y(page, "ship"));
        assertThat((Double) page.evaluate("() => { const cy = " + CY + "; const b = cy.nodes().renderedBoundingBox();"
                + " return Math.max(b.w / cy.width(), b.h / cy.height()); }")).isGreaterThan(0.6);
        assertThat(edgeClasses(page, "score", "review")).contains("travelled");
        assertThat(edgeClasses(page, "score", "nurture")).contains("faded");
        assertThat(nodeClasses(page, "nurture")).contains("faded");
        assertThat(edgeClasses(page, "review", "notify_rejected")).contains("rejection");
        // the human node's "awaiting approval" stays inside its shape
        assertThat(graphLabel(page, "review")).contains("awaiting approval");
        assertThat((Boolean) page.evaluate("() => { const n = " + CY + ".getElementById('review');"
                + " const shape = n.boundingBox({includeLabels: false});"
                + " const label = n.boundingBox({includeNodes: false, includeLabels: true});"
                + " return label.x1 >= shape.x1 && label.x2 <= shape.x2 && label.y1 >= shape.y1"
                + " && label.y2 <= shape.y2; }")).isTrue();

        APIResponse patched = page.request().post(base() + "/api/v1/runs/" + run + "/patch", RequestOptions.create()
                .setData("""
                        [{"op": "add", "path": "/nodes/-", "value": {"id": "audit", "type": "function",
                          "config": {"function": "echo"}}},
                         {"op": "add", "path": "/edges/-", "value": {"from": "ship", "to": "audit"}}]""")
                .setHeader("Content-Type", "application/json-patch+json").setHeader("If-Match", "\"0\"")
                .setHeader("Authorization", basic()));
        assertThat(patched.status()).as(patched.text()).isEqualTo(200);

        // live, without reloading: the added node is in the list and on the graph, and the timeline names it
        Locator audit = node(page, "audit");
        assertThat(audit).hasAttribute("data-added", "true");
        assertThat(audit.locator(".badge-added")).hasText("added by patch");
        page.waitForFunction("() => " + CY + ".getElementById('audit').hasClass('added')");
        assertThat(edgeClasses(page, "ship", "audit")).doesNotContain("travelled");
        assertThat(y(page, "ship")).isLessThan(y(page, "audit"));
        assertThat(page.locator("#run-timeline-list")).containsText("revision 1 by dana: added audit");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("run-page-patched.png")));

        approve(page, page.locator("#run-approvals [data-approval-id]").getAttribute("data-approval-id"));
        // tokens large enough to follow travel the approved path; the rejection path is not taken
        page.waitForFunction("() => [...document.querySelectorAll('#run-graph .graph-token')]"
                + ".some(token => token.getBoundingClientRect().width >= 16)");
        assertThat(node(page, "audit")).hasAttribute("data-status", "completed");
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        assertThat(edgeClasses(page, "ship", "audit")).contains("travelled");
        assertThat(edgeClasses(page, "review", "ship")).contains("travelled");
        assertThat(edgeClasses(page, "review", "notify_rejected")).contains("faded");
        assertThat(nodeClasses(page, "notify_rejected")).contains("faded");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("run-page-completed.png")));

        page.reload();
        assertThat(node(page, "audit").locator(".badge-added")).hasText("added by patch");
        page.waitForFunction("() => " + CY + ".getElementById('audit').hasClass('added')");
        assertThat(console).isEmpty();
    }

    @Test
    void drawsEveryEdgeWhenNodeIdsWithDashesMakeTheSameFromToName(Page page) {
        List<String> console = ConsoleProblems.of(page);
        SignIn.andOpen(page, base(), "/runs");
        // a -> b-c and a-b -> c: both were "edge-a-b-c" to the graph, which refused the second
        String workflow = createWorkflow(page, """
                {"name": "dashes-%s", "nodes": [
                  {"id": "a", "type": "function", "config": {"function": "echo"}},
                  {"id": "a-b", "type": "function", "config": {"function": "echo"}},
                  {"id": "b-c", "type": "function", "config": {"function": "echo"}},
                  {"id": "c", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "a", "to": "a-b"}, {"from": "a", "to": "b-c"}, {"from": "a-b", "to": "c"}]}""");
        UUID run = startRun(page, workflow, "{}");
        awaitEvent(page, run, "run.completed");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        page.waitForFunction("() => " + CY + ".edges().length === 3");
        assertThat(edgeClasses(page, "a", "b-c")).contains("travelled");
        assertThat(edgeClasses(page, "a-b", "c")).contains("travelled");
        assertThat(edgeClasses(page, "a", "a-b")).contains("travelled");
        assertThat(console).isEmpty();
    }

    @Test
    void placesNodesWhereTheDesignerDidAndTheDurationTicksWhileTheRunWaitsAndMatchesTheServersOnReload(Page page) {
        List<String> console = ConsoleProblems.of(page);
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "ticking-%s", "nodes": [
                  {"id": "wait", "type": "function", "config": {"function": "gate"}, "ui": {"x": 400, "y": 0}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}, "ui": {"x": 0, "y": 300}}],
                 "edges": [{"from": "wait", "to": "done"}]}""");
        UUID run = startRun(page, workflow, "{}");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#live-status")).hasText("Live");
        // where the designer placed the nodes (dagre would have put one above the other)
        assertThat(x(page, "done")).isLessThan(x(page, "wait") - 200);
        assertThat(y(page, "done")).isGreaterThan(y(page, "wait") + 200);
        Locator duration = page.locator("#run-duration");
        String first = duration.textContent();
        assertThat(duration).not().hasText(first);
        String ticked = duration.textContent();
        assertThat(duration).not().hasText(ticked);
        double shown = seconds(duration.textContent());
        page.reload();
        double server = seconds(page.locator("#run-duration").textContent());
        assertThat(server).isBetween(shown, shown + 3);

        Gates.open(run);
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        String ended = duration.textContent();
        assertThat(page.locator("#run-duration")).not().hasAttribute("data-ticking", "true");
        page.reload();
        assertThat(page.locator("#run-duration")).hasText(ended);
        assertThat(console).isEmpty();
    }

    @Test
    void drawsRetriesMapProgressAndTimersOnTheGraph(Page page) {
        List<String> console = ConsoleProblems.of(page);
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "graph-badges-%s", "nodes": [
                  {"id": "each", "type": "function", "config": {"function": "gate"},
                   "map": {"items": "${workflow.input.orders}", "concurrency": 2}},
                  {"id": "charge", "type": "function", "config": {"function": "fail",
                   "args": {"kind": "transient", "message": "gateway busy"}},
                   "retry": {"max_attempts": 3, "backoff_ms": 20000, "jitter": 0}},
                  {"id": "pause", "type": "wait", "wait": {"duration": "PT60S"}}]}""");
        UUID run = startRun(page, workflow, "{\"orders\": [1, 2, 3]}");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#live-status")).hasText("Live");
        assertThat(node(page, "charge")).hasAttribute("data-attempt", "2/3");
        assertThat(node(page, "pause").locator(".badge-waiting")).isVisible();
        page.waitForFunction("() => " + CY + ".getElementById('charge').data('label').includes('attempt 2/3')");
        page.waitForFunction("() => " + CY + ".getElementById('each').data('label').includes('0/3 done')");
        page.waitForFunction("() => /fires \\d\\d:\\d\\d:\\d\\d/.test(" + CY
                + ".getElementById('pause').data('label'))");
        Gates.open(run);
        assertThat(node(page, "each")).hasAttribute("data-status", "completed");
        page.waitForFunction("() => !" + CY + ".getElementById('each').data('label').includes('done')");
        assertThat(console).isEmpty();
    }

    @Test
    void reprocessesAParkedTaskFromTheRunPage(Page page) {
        List<String> console = ConsoleProblems.of(page);
        SignIn.andOpen(page, base(), "/runs");
        String workflow = createWorkflow(page, """
                {"name": "park-%s", "nodes": [
                  {"id": "check", "type": "function", "config": {"function": "approved"},
                   "on_failure": {"action": "dlq"}},
                  {"id": "done", "type": "function", "config": {"function": "echo"}}],
                 "edges": [{"from": "check", "to": "done"}]}""");
        UUID run = startRun(page, workflow, "{\"ok\": false}");

        page.navigate(base() + "/runs/" + run);
        Locator check = node(page, "check");
        assertThat(check).hasAttribute("data-parked", "true");
        page.waitForFunction("() => " + CY + ".getElementById('check').data('label').includes('in dead-letter queue')");
        // the supervisor writes the dead-letter entry from the event log: until then there is nothing to reprocess
        Locator reprocess = check.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
                new Locator.GetByRoleOptions().setName("Reprocess"));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() -> {
            reprocess.click();
            assertThat(page.locator(".notice")).containsText("Reprocessed node check from the dead-letter queue",
                    new com.microsoft.playwright.assertions.LocatorAssertions.ContainsTextOptions().setTimeout(2000));
        });
        // its own input fails again: the timeline shows both, and the node is parked once more
        assertThat(page.locator("#run-timeline-list")).containsText("reprocessed from the dead-letter queue by dana");
        assertThat(node(page, "check")).hasAttribute("data-parked", "true");
        page.waitForFunction("() => " + CY + ".getElementById('check').data('label').includes('in dead-letter queue')");
        assertThat(page.locator("#live-status")).hasText("Live");
        assertThat(console).isEmpty();
    }

    /** {@code 12.3 s}, {@code 450 ms} or {@code 1m 04s} in seconds. */
    private static double seconds(String duration) {
        if (duration.endsWith(" ms")) {
            return Double.parseDouble(duration.replace(" ms", "")) / 1000;
        }
        if (duration.endsWith(" s")) {
            return Double.parseDouble(duration.replace(" s", ""));
        }
        String[] parts = duration.replace("s", "").split("m ");
        return Integer.parseInt(parts[0]) * 60 + Integer.parseInt(parts[1]);
    }

    private void approve(Page page, String approval) {
        APIResponse decided = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD,
                "/api/v1/approvals/" + approval + "/decide", "{\"decision\": \"approve\"}");
        assertThat(decided.status()).as(decided.text()).isBetween(200, 204);
    }

    private static double x(Page page, String node) {
        return ((Number) page.evaluate("() => " + CY + ".getElementById('" + node + "').position('x')")).doubleValue();
    }

    private static double y(Page page, String node) {
        return ((Number) page.evaluate("() => " + CY + ".getElementById('" + node + "').position('y')")).doubleValue();
    }

    private static String graphLabel(Page page, String node) {
        return (String) page.evaluate("() => " + CY + ".getElementById('" + node + "').data('label')");
    }

    private static String nodeClasses(Page page, String node) {
        return (String) page.evaluate("() => " + CY + ".getElementById('" + node + "').classes().join(' ')");
    }

    private static String edgeClasses(Page page, String from, String to) {
        return (String) page.evaluate("a => { const edges = " + CY + ".edges().filter(e => e.source().id() === a[0]"
                + " && e.target().id() === a[1]); if (edges.length !== 1) throw new Error('Expected one edge ' + a[0]"
                + " + ' -> ' + a[1] + ', but found ' + edges.length); return edges.classes().join(' '); }",
                List.of(from, to));
    }

    private Locator node(Page page, String id) {
        return page.locator("#run-nodes li[data-node='" + id + "']");
    }

    private String createWorkflow(Page page, String template) {
        String name = template.substring(template.indexOf("\"name\": \"") + 9, template.indexOf("%s"))
                + UUID.randomUUID().toString().substring(0, 8);
        String body = template.replaceFirst("\"name\": \"[^\"]*%s\"", "\"name\": \"" + name + "\"");
        APIResponse response = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/workflows", body);
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return name;
    }

    private UUID startRun(Page page, String workflow, String inputs) {
        APIResponse response = SignIn.post(page, base(), SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/runs",
                "{\"workflow\": \"" + workflow + "\", \"inputs\": " + inputs + "}");
        assertThat(response.status()).as(response.text()).isEqualTo(201);
        return UUID.fromString(JSON.readTree(response.text()).get("id").asString());
    }

    private void awaitEvent(Page page, UUID run, String type) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> page.request()
                .get(base() + "/api/v1/runs/" + run + "/events", RequestOptions.create()
                        .setHeader("Authorization", basic())).text().contains("\"" + type + "\""));
    }

    private static String basic() {
        return "Basic " + java.util.Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
