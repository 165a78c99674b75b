package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A designer's day in the visual editor: build a graph by drag and drop, configure it in the inspector, see problems
 * beside the node at fault, fix them, save (an RFC 6902 patch with If-Match), tag, compare versions, start a run.
 */
@BrowserTest
class DesignerE2ETests {

    /** README screenshots are refreshed with -Dtokenflow.screenshots=docs/screenshots; otherwise they go to target/. */
    private static final Path VALID = Path.of("src/test/resources/workflows/valid");
    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));

    @LocalServerPort
    int port;

    private final List<String> scriptErrors = new ArrayList<>();

    @Test
    void buildsFanOutFanInByDragAndDropThenFixesProblemsSavesTagsComparesAndRuns(Page page) {
        page.setViewportSize(1440, 900);
        String name = openNewWorkflowInDesigner(page, "fan-out-fan-in");
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        Locator inspector = page.locator("#inspector");
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Problems")).click();

        select(page, canvas, "start");
        rename(page, "start", "A");
        canvas.drag("A", 0, -150);
        for (String[] node : new String[][] {{"B", "-160", "0"}, {"C", "160", "0"}, {"D", "0", "130"}}) {
            double[] a = canvas.center("A");
            var box = canvas.canvas().boundingBox();
            String id = canvas.drop("Function", a[0] - box.x + Double.parseDouble(node[1]),
                    a[1] - box.y + 120 + Double.parseDouble(node[2]));
            assertThat(inspector.locator("h2")).containsText(id);
            rename(page, id, node[0]);
        }
        canvas.connect("A", "B");
        canvas.connect("A", "C");
        canvas.connect("B", "D");
        canvas.connect("C", "D");

        select(page, canvas, "D");
        inspector.getByLabel("Wait for all incoming paths (join)").check();
        assertThat(page.locator("#problems-panel")).containsText("The draft compiles");

        select(page, canvas, "A");
        inspector.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Add branch")).click();
        Locator rule = inspector.locator("fieldset.rule").first();
        assertThat(rule.getByLabel("Condition type")).hasValue("cel");
        assertThat(page.locator("#problems-node-A")).isVisible();
        rule.getByLabel("CEL expression").fill("has(output.skip)");
        rule.getByLabel("Then go to").fill("C");
        inspector.getByLabel("Default", new Locator.GetByLabelOptions().setExact(true)).fill("B, C");
        assertThat(page.locator("#problems-node-A")).not().isVisible();
        // the rule would send C alone and leave the join at D waiting for B forever: refused at D
        assertThat(page.locator("#problems-node-D")).containsText("join 'D'");
        rule.getByLabel("Then go to").fill("B, C");
        assertThat(page.locator("#problems-panel li[data-severity=error]")).hasCount(0);

        canvas.clickEdge("A", "B");
        assertThat(inspector.locator("h2")).hasText("Edge A → B");
        Locator to = inspector.getByLabel("To", new Locator.GetByLabelOptions().setExact(true));
        to.fill("nowhere");
        to.press("Enter");
        Locator problemsOfA = page.locator("#problems-node-A");
        assertThat(problemsOfA).containsText("no node 'nowhere'");
        assertThat(page.locator("#problem-count")).hasClass(Pattern.compile("has-errors"));
        assertThat(inspector.locator("[data-field='/edges/0/to'] .field-problems")).containsText("nowhere");
        assertThat(canvas.hasClass("A", "problem-error")).isTrue();
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-problems.png")));

        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save").setExact(true)).click();
        assertThat(page.locator("#toasts")).containsText("Not saved: the workflow does not compile");
        assertThat(page.locator("#save-state")).containsText("Unsaved changes");

        select(page, canvas, "A");
        inspector.locator("fieldset.rule").first().getByLabel("CEL expression").fill("has(output.skip) &&");
        assertThat(problemsOfA.locator("li[data-severity=error][data-pointer^='/nodes/0/branch/rules/0/condition']"))
                .containsText("an expression is missing after '&&' at column 18");
        assertThat(inspector.locator("fieldset.rule").first().locator("[data-field$='/expression'] .field-problems"))
                .containsText("an expression is missing after '&&' at column 18");

        problemsOfA.locator("li", new Locator.LocatorOptions().setHasText("no node 'nowhere'")).getByRole(AriaRole.BUTTON)
                .click();
        Locator edgeTo = inspector.getByLabel("To", new Locator.GetByLabelOptions().setExact(true));
        assertThat(edgeTo).hasValue("nowhere");
        edgeTo.fill("B");
        edgeTo.press("Enter");
        select(page, canvas, "A");
        inspector.locator("fieldset.rule").first().getByLabel("CEL expression").fill("has(output.skip)");
        assertThat(page.locator("#problems-panel li[data-severity=error]")).hasCount(0);
        assertThat(canvas.hasClass("A", "problem-error")).isFalse();

        page.getByLabel("Change message").fill("Fan out to B and C, join at D");
        page.keyboard().press("Control+s");
        assertThat(page.locator("#toasts")).containsText("Saved as version 2");
        assertThat(page.locator("#save-state")).hasText("Saved · version 2");
        page.locator("#toasts").getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Dismiss"))
                .click();
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer.png")));

        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("History")).click();
        Locator history = page.locator("#panel-history");
        assertThat(history.locator("#version-list > li")).hasCount(2);
        assertThat(history.locator("#editor-version-2")).containsText("Fan out to B and C, join at D");
        assertThat(history.locator("#editor-version-2")).containsText(SignIn.USERNAME);
        history.getByLabel("Tag", new Locator.GetByLabelOptions().setExact(true)).fill("main");
        history.getByLabel("Version", new Locator.GetByLabelOptions().setExact(true)).selectOption("2");
        history.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Set tag")).click();
        assertThat(history.locator("#tag-list")).containsText("main → version 2");

        history.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Changes in version 2")).click();
        Locator diff = page.locator("#diff-panel");
        assertThat(diff).containsText("Changes from v1 to v2");
        assertThat(diff).containsText("nodes A, B, C, D");
        assertThat(diff.locator("pre")).containsText("\"op\"");
        diff.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Show on canvas")).click();
        assertThat(page.locator("#diff-chip")).containsText("Changes from version 1 to 2");
        page.waitForFunction("() => window.tokenflowDesigner.canvas.cy.getElementById('B').hasClass('diff-added')");
        assertThat(canvas.hasClass("start", "diff-removed")).isTrue();
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-diff.png")));
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Back to editing")).click();
        assertThat(page.locator("#diff-chip")).isHidden();

        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Run")).click();
        Locator run = page.locator("#panel-run");
        assertThat(run).containsText("Start a run of version 2");
        run.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Start run")).click();
        assertThat(run.locator("#run-result .status")).hasText("completed");
        assertThat(run.locator(".run-nodes")).containsText("D: completed");
        assertThat(run.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Open the run page")))
                .hasAttribute("href", Pattern.compile("^/runs/[0-9a-f-]{36}$"));
        assertThat(page.locator("#workflow-name")).hasText(name);
    }

    @Test
    void twoBrowsersEditingTheSameWorkflowSeeAConflictAndReapplyTheirChanges(Page page) {
        openNewWorkflowInDesigner(page, "contested");
        String editor = page.url().substring(baseUrl().length());
        DesignerCanvas first = new DesignerCanvas(page).ready();
        BrowserContext otherBrowser = page.context().browser().newContext(
                new Browser.NewContextOptions().setViewportSize(1280, 800));
        try {
            Page other = otherBrowser.newPage();
            watchForScriptErrors(other);
            SignIn.andOpen(other, baseUrl(), editor);
            DesignerCanvas second = new DesignerCanvas(other).ready();

            String added = first.drop("Function", 300, 300);
            page.keyboard().press("Control+s");
            assertThat(page.locator("#toasts")).containsText("Saved as version 2");

            second.drag("start", 120, 80);
            other.keyboard().press("Control+s");
            Locator banner = other.locator("#toasts");
            assertThat(banner).containsText("someone saved version 2 while you edited version 1");
            assertThat(banner).containsText("Nothing was overwritten");
            banner.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions()
                    .setName("Re-apply my changes on version 2")).click();
            assertThat(banner).containsText("re-applied on version 2");
            assertThat(other.locator("#save-state")).hasText("Unsaved changes");
            other.keyboard().press("Control+s");
            assertThat(banner).containsText("Saved as version 3");

            Object stored = other.evaluate("() => fetch(location.pathname.replace('/workflows/', '/api/v1/workflows/')"
                    + ".replace('/editor', '')).then(r => r.json()).then(w => [w.version, w.dsl.nodes.map(n => n.id), "
                    + "!!w.dsl.nodes[0].ui])");
            assertThat(stored.toString()).isEqualTo("[3, [start, " + added + "], true]");
        } finally {
            otherBrowser.close();
        }
    }

    @Test
    void startsARunFromTheFormMadeOfTheDeclaredInputs(Page page) {
        String document = "{\"name\": \"" + unique("with-inputs") + "\", \"inputs\": {\"type\": \"object\", "
                + "\"properties\": {\"amount\": {\"type\": \"number\"}, \"customer\": {\"type\": \"string\"}}, "
                + "\"required\": [\"amount\"]}, \"nodes\": [{\"id\": \"greet\", \"type\": \"function\", "
                + "\"config\": {\"function\": \"echo\"}, \"input\": {\"who\": \"${workflow.input.customer}\"}}]}";
        openPastedWorkflowInDesigner(page, document);
        new DesignerCanvas(page).ready();
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Run")).click();
        Locator run = page.locator("#panel-run");
        Locator amount = run.getByLabel("amount");
        amount.fill("lots");
        run.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Start run")).click();
        assertThat(run.locator("[data-field='/amount'] .local-error")).hasText("Expected a number, but found 'lots'");

        amount.fill("125.5");
        run.getByLabel("customer").fill("Ada");
        run.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Start run")).click();
        assertThat(run.locator("#run-result .status")).hasText("completed");
        assertThat(run.locator(".run-nodes")).containsText("greet: completed");
        String json = run.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("as JSON")).getAttribute("href");
        Object inputs = page.evaluate("url => fetch(url).then(r => r.json()).then(r => JSON.stringify(r.inputs))", json);
        assertThat(inputs).isEqualTo("{\"amount\":125.5,\"customer\":\"Ada\"}");
    }

    @Test
    void importsASeedPlanLaysItOutSavesItAndExportsJsonAndAnImage(Page page) throws IOException {
        String name = openNewWorkflowInDesigner(page, "imported");
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        page.locator("#import-file").setInputFiles(VALID.resolve("research-and-write.plan.json"));
        assertThat(page.locator("#toasts")).containsText("a seed-004 plan, converted");
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.length === 2");
        double[] first = canvas.center("step-1");
        double[] second = canvas.center("step-2");
        assertThat(second[1]).isGreaterThan(first[1] + 40);
        page.keyboard().press("Control+s");
        assertThat(page.locator("#toasts")).containsText("Saved as version 2");

        Locator more = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("More"));
        more.click();
        Download json = page.waitForDownload(() -> page.getByRole(AriaRole.MENUITEM,
                new Page.GetByRoleOptions().setName("Export JSON")).click());
        JsonNode exported = JsonMapper.builder().build().readTree(json.path().toFile());
        assertThat(exported.path("name").asString()).isEqualTo(name);
        assertThat(exported.path("nodes").get(0).path("type").asString()).isEqualTo("http_agent");
        more.click();
        Download png = page.waitForDownload(() -> page.getByRole(AriaRole.MENUITEM,
                new Page.GetByRoleOptions().setName("Export PNG")).click());
        assertThat(png.suggestedFilename()).isEqualTo(name + ".png");
        assertThat(Files.readAllBytes(png.path())).startsWith(0x89, 'P', 'N', 'G');
    }

    @Test
    void setsATimeoutRetriesAndADeadLetterQueueInTheInspectorAndSeesAProblemBesideTheField(Page page) {
        openNewWorkflowInDesigner(page, "failures");
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        select(page, canvas, "start");
        Locator inspector = page.locator("#inspector");
        inspector.locator("summary", new Locator.LocatorOptions().setHasText("Retry and timeout")).click();
        inspector.getByLabel("Timeout of an attempt (s)").fill("30");
        inspector.getByLabel("Max attempts").fill("3");
        inspector.getByLabel("Retry only these error codes").fill("http_503, rate_limited");
        inspector.locator("summary", new Locator.LocatorOptions().setHasText("On failure")).click();
        inspector.getByLabel("When no retry is left").selectOption("dlq");
        page.waitForFunction("() => { const n = window.tokenflowDesigner.draft.nodes[0]; return n.timeout_s === 30 "
                + "&& n.retry && n.retry.max_attempts === 3 && n.retry.retry_on.join() === 'http_503,rate_limited' "
                + "&& n.on_failure && n.on_failure.action === 'dlq'; }");
        assertThat(page.locator("#problems-panel")).not().containsText("on_failure");

        inspector.getByLabel("Error path (node ids)").fill("nowhere");
        assertThat(inspector.locator("[data-field='/nodes/0/on_failure/next_nodes'] .field-problems"))
                .containsText("next_nodes only with action 'path'");
    }

    @Test
    void editsWithTheKeyboardUndoesRedoesAndRoundTripsTheDsl(Page page) {
        openNewWorkflowInDesigner(page, "keys");
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        select(page, canvas, "start");
        page.keyboard().press("Control+d");
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.map(n => n.id).join() === 'start,start_1'");
        canvas.canvas().focus();
        page.keyboard().press("Control+a");
        page.keyboard().press("Delete");
        assertThat(canvas.nodeCount()).isZero();
        assertThat(page.locator("#problems-workflow")).containsText("/nodes");
        page.keyboard().press("Control+z");
        assertThat(canvas.nodeCount()).isEqualTo(2);
        page.keyboard().press("Control+Shift+z");
        assertThat(canvas.nodeCount()).isZero();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Undo").setExact(true)).click();
        assertThat(canvas.nodeCount()).isEqualTo(2);

        page.keyboard().press("l");
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.every(n => n.ui && typeof n.ui.x === 'number')");

        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("DSL")).click();
        Locator dsl = page.getByLabel("Draft DSL (JSON)");
        assertThat(dsl).hasValue(Pattern.compile("\"id\": \"start_1\""));
        dsl.fill(dsl.inputValue().replace("\"start_1\"", "\"second\""));
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Apply JSON")).click();
        page.waitForFunction("() => window.tokenflowDesigner.canvas.cy.getElementById('second').nonempty()");
        dsl.fill("{\"name\": ");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Apply JSON")).click();
        assertThat(page.locator("#dsl-error")).containsText("Expected a JSON document");
        assertThat(canvas.nodeCount()).isEqualTo(2);
        canvas.drag("second", 60, 0);
        page.waitForFunction("() => window.tokenflowDesigner.undoStack.length > 0 && "
                + "window.tokenflowDesigner.lastEdit.key === 'Move'");
        assertThat(dsl).hasValue("{\"name\": ");
    }

    @Test
    void laysOutNodesThatAnApiPatchAddedWithoutPositions(Page page) {
        openNewWorkflowInDesigner(page, "patched");
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        canvas.canvas().focus();
        page.keyboard().press("l");
        page.keyboard().press("Control+s");
        assertThat(page.locator("#toasts")).containsText("Saved as version 2");
        Object status = page.evaluate("() => fetch(location.pathname.replace('/workflows/', '/api/v1/workflows/')"
                + ".replace('/editor', ''), {method: 'PATCH', headers: {'Content-Type': 'application/json-patch+json',"
                + " 'If-Match': '\"2\"', [document.querySelector('meta[name=_csrf_header]').content]:"
                + " document.querySelector('meta[name=_csrf]').content}, body: JSON.stringify(["
                + "{op: 'add', path: '/nodes/-', value: {id: 'later', type: 'function', config: {function: 'noop'}}},"
                + "{op: 'add', path: '/edges', value: [{from: 'start', to: 'later'}]}])}).then(r => r.status)");
        assertThat(status).isEqualTo(200);

        page.reload();
        canvas.ready();
        double[] start = canvas.center("start");
        double[] later = canvas.center("later");
        assertThat(later[1]).isGreaterThan(start[1] + 50);
        assertThat(Math.abs(later[0] - start[0])).isLessThan(5);
        assertThat(page.locator("#save-state")).hasText("Saved · version 3");
    }

    @Test
    void twoHundredNodeWorkflowStaysResponsiveToOpenDragAndCompile(Page page) {
        String document = LaneWorkflow.json(unique("two-hundred"), 10, 19, 8);
        openPastedWorkflowInDesigner(page, document, false);
        long opening = System.nanoTime();
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        double openMs = (System.nanoTime() - opening) / 1e6;
        double firstRenderMs = timing(page, "firstRenderMs");
        assertThat(canvas.nodeCount()).isEqualTo(200);

        int revision = ((Number) page.evaluate("() => window.tokenflowDesigner.revision")).intValue();
        long dragging = System.nanoTime();
        canvas.drag("lane4_10", 40, 30);
        page.waitForFunction("r => window.tokenflowDesigner.timings.checkedRevision > r", revision);
        double dragToCheckedMs = (System.nanoTime() - dragging) / 1e6;
        double changeMs = timing(page, "lastChangeMs");
        double checkMs = timing(page, "lastCheckMs");

        long saving = System.nanoTime();
        page.keyboard().press("Control+s");
        assertThat(page.locator("#toasts")).containsText("Saved as version 2");
        double saveMs = (System.nanoTime() - saving) / 1e6;
        System.out.printf("Designer, 200 nodes / 208 edges: open %.0f ms (first render %.0f ms), drag → draft %.1f ms,"
                        + " drag → compiled and marked %.0f ms (server check round trip %.0f ms), save %.0f ms%n",
                openMs, firstRenderMs, changeMs, dragToCheckedMs, checkMs, saveMs);
        assertThat(changeMs).isLessThan(1000);
    }

    @AfterEach
    void noScriptFailed() {
        assertThat(scriptErrors).as("uncaught errors in the page's scripts").isEmpty();
    }

    private void watchForScriptErrors(Page page) {
        page.onPageError(scriptErrors::add);
    }

    /** Creates a workflow with the list page's form and opens it in the designer; returns its name. */
    private String openNewWorkflowInDesigner(Page page, String prefix) {
        watchForScriptErrors(page);
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String name = unique(prefix);
        Locator form = page.locator("#new-workflow");
        form.getByLabel("Name").fill(name);
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create workflow")).click();
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
        assertThat(page.locator("#workflow-name")).hasText(name);
        return name;
    }

    /** Clicks a node and waits for its inspector. */
    private static void select(Page page, DesignerCanvas canvas, String node) {
        canvas.click(node);
        assertThat(page.locator("#inspector h2")).hasText("Node " + node);
    }

    private static void rename(Page page, String from, String to) {
        Locator id = page.locator("#inspector").getByLabel("Id", new Locator.GetByLabelOptions().setExact(true));
        assertThat(id).hasValue(from);
        id.fill(to);
        id.press("Enter");
        assertThat(page.locator("#inspector h2")).containsText(to);
    }

    /** Imports a workflow by pasting its JSON on the list page and opens it in the designer. */
    private void openPastedWorkflowInDesigner(Page page, String document) {
        openPastedWorkflowInDesigner(page, document, true);
    }

    private void openPastedWorkflowInDesigner(Page page, String document, boolean open) {
        watchForScriptErrors(page);
        SignIn.andOpen(page, baseUrl(), "/workflows");
        page.getByLabel("Workflow JSON").fill(document);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Import JSON")).click();
        if (open) {
            page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
        } else {
            assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer"))).isVisible();
        }
    }

    private static double timing(Page page, String name) {
        return ((Number) page.evaluate("n => window.tokenflowDesigner.timings[n]", name)).doubleValue();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private String baseUrl() {
        return "http://localhost:" + port;
    }
}
