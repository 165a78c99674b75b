package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.BoundingBox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The designer's workspace at 1440×900: the canvas takes the screen (one-row toolbar, folding panels, a compact
 * palette), an overview to move around, toasts that never block the canvas, the command palette, and copy and paste
 * of nodes between workflows.
 */
@BrowserTest
class DesignerWorkspaceE2ETests {

    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));

    @LocalServerPort
    int port;

    private final List<String> problems = new ArrayList<>();

    @Test
    void theCanvasTakesTheScreenAndGrowsWhenThePanelsFoldAway(Page page) {
        openInDesigner(page, create(page, chain(unique("roomy"), 3)));
        Locator toolbar = page.getByRole(AriaRole.TOOLBAR, new Page.GetByRoleOptions().setName("Editor actions"));
        assertThat(toolbar.boundingBox().height).isLessThan(50);
        assertThat(number(page.evaluate("() => { const tops = [...document.querySelectorAll('.editor-toolbar button, "
                + ".editor-toolbar input[type=text]')].filter(b => b.offsetParent)"
                + ".map(b => b.getBoundingClientRect().top); return Math.max(...tops) - Math.min(...tops); }")))
                .as("every tool in one row").isLessThan(8);
        BoundingBox opened = canvasBox(page);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-workspace.png")));
        assertThat(opened.width).isGreaterThanOrEqualTo(1000);
        assertThat(opened.height).isGreaterThanOrEqualTo(650);
        Locator approval = page.locator(".palette-item", new Page.LocatorOptions().setHasText("Human approval"));
        assertThat(approval).isInViewport();
        // custom types other tests (or teams) registered may make the palette scroll; the built-in ones never do
        assertThat(page.evaluate("() => { const p = document.getElementById('palette').getBoundingClientRect();"
                + " return [...document.querySelectorAll('#palette .palette-group')]"
                + ".filter(g => g.querySelector('h3').textContent.trim().toLowerCase() !== 'custom')"
                + ".flatMap(g => [...g.querySelectorAll('.palette-item')])"
                + ".every(b => b.getBoundingClientRect().bottom <= p.bottom); }"))
                .as("every built-in palette entry visible without scrolling").isEqualTo(true);

        Locator bottom = page.locator("#bottom-panels");
        assertThat(bottom).isHidden();
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("DSL")).click();
        assertThat(bottom).isVisible();
        assertThat(page.getByLabel("Draft DSL (JSON)")).isVisible();
        assertThat(canvasBox(page).height).isLessThan(opened.height - 100);
        Locator panelToggle = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Panel"));
        assertThat(panelToggle).hasAttribute("aria-expanded", "true");
        panelToggle.click();
        assertThat(bottom).isHidden();

        Locator nodes = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Nodes").setExact(true));
        nodes.click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Inspector")).click();
        assertThat(nodes).hasAttribute("aria-expanded", "false");
        assertThat(page.locator("#palette")).isHidden();
        assertThat(page.locator("#inspector")).isHidden();
        page.waitForFunction("w => window.tokenflowDesigner.canvas.cy.width() > w", opened.width + 300);
        BoundingBox folded = canvasBox(page);
        assertThat(folded.width).isGreaterThan(opened.width + 300);
        System.out.printf("Designer canvas at 1440×900: %.0f×%.0f px with the panels as they start (bottom panel"
                + " folded), %.0f×%.0f px with the palette and inspector folded too%n", opened.width, opened.height,
                folded.width, folded.height);

        page.reload();
        new DesignerCanvas(page).ready();
        assertThat(page.locator("#palette")).isHidden();
        assertThat(nodes).hasAttribute("aria-expanded", "false");
        nodes.press("Enter");
        assertThat(page.locator("#palette")).isVisible();
        assertThat(problems).isEmpty();
    }

    @Test
    void rarelyUsedActionsWaitInTheMoreMenuOpenedByKeyboard(Page page) {
        openInDesigner(page, create(page, chain(unique("menu"), 2)));
        Locator more = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("More"));
        more.focus();
        page.keyboard().press("Enter");
        assertThat(more).hasAttribute("aria-expanded", "true");
        Locator items = page.getByRole(AriaRole.MENUITEM);
        assertThat(items).hasText(new String[] {"Import…", "Export JSON", "Export PNG", "Command palette (Ctrl+K)",
                "Keyboard shortcuts"});
        assertThat(items.first()).isFocused();
        page.keyboard().press("End");
        assertThat(page.getByRole(AriaRole.MENUITEM, new Page.GetByRoleOptions().setName("Keyboard shortcuts")))
                .isFocused();
        page.keyboard().press("Enter");
        Locator help = page.getByRole(AriaRole.REGION, new Page.GetByRoleOptions().setName("Keyboard shortcuts"));
        assertThat(help).containsText("Ctrl+C / Ctrl+V");
        assertThat(help).containsText("Ctrl+K");
        page.keyboard().press("Enter");
        assertThat(help).isHidden();
        assertThat(more).isFocused();
        page.keyboard().press("ArrowDown");
        assertThat(items.first()).isFocused();
        page.keyboard().press("Escape");
        assertThat(page.getByRole(AriaRole.MENU)).isHidden();
        assertThat(more).isFocused();
    }

    @Test
    void aClickOnTheCanvasRightAfterSavingSelectsTheNodeUnderTheOldBanner(Page page) {
        String name = create(page, chain(unique("toasts"), 8));
        page.clock().install();
        openInDesigner(page, name);
        DesignerCanvas canvas = new DesignerCanvas(page);
        canvas.canvas().focus();
        page.keyboard().press("f");
        page.getByLabel("Change message").fill("Fitted");
        canvas.drag("n7", 40, 0);
        page.keyboard().press("Control+s");
        Locator toasts = page.locator("#toasts");
        assertThat(toasts.getByRole(AriaRole.STATUS)).containsText("Saved as version 2");

        // the banner covered the canvas from 12 to 48 px below its top: click the first node inside that band
        BoundingBox box = canvasBox(page);
        List<?> top = (List<?>) page.evaluate("() => { const b = window.tokenflowDesigner.canvas.cy.getElementById('n0')"
                + ".renderedBoundingBox(); return [b.x1, b.x2, b.y1, b.y2]; }");
        double y = Math.max(number(top.get(2)) + 4, 20);
        assertThat(y).isLessThan(48).isLessThan(number(top.get(3)));
        page.mouse().click(box.x + (number(top.get(0)) + number(top.get(1))) / 2, box.y + y);
        assertThat(page.locator("#inspector h2")).hasText("Node n0");
        assertThat(toasts.getByRole(AriaRole.STATUS)).containsText("Saved as version 2");
        page.keyboard().press("Delete");
        page.waitForFunction("() => !window.tokenflowDesigner.draft.nodes.some(n => n.id === 'n0')");
        page.clock().runFor(6_000);
        assertThat(toasts.getByRole(AriaRole.STATUS)).hasCount(0);

        page.keyboard().press("Control+z");
        page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("DSL")).click();
        Locator dsl = page.getByLabel("Draft DSL (JSON)");
        dsl.fill(dsl.inputValue().replace("\"to\": \"n1\"", "\"to\": \"nowhere\""));
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Apply JSON")).click();
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Panel")).click();
        page.keyboard().press("Control+s");
        Locator error = toasts.getByRole(AriaRole.ALERT);
        assertThat(error).containsText("Not saved: the workflow does not compile");
        assertThat(page.locator("#problems-panel")).isVisible();
        assertThat(page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName(Pattern.compile("^Problems"))))
                .hasAttribute("aria-selected", "true");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-toast-error.png")));
        page.clock().runFor(15_000);
        assertThat(error).isVisible();
        error.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Dismiss")).click();
        assertThat(error).hasCount(0);
        assertThat(problems).isEmpty();
    }

    @Test
    void theCommandPaletteAddsAHumanApprovalNodeByName(Page page) {
        openInDesigner(page, create(page, chain(unique("commands"), 2)));
        DesignerCanvas canvas = new DesignerCanvas(page);
        canvas.canvas().focus();
        page.keyboard().press("Control+k");
        Locator dialog = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Command palette"));
        assertThat(dialog).isVisible();
        Locator filter = dialog.getByRole(AriaRole.COMBOBOX);
        assertThat(filter).isFocused();
        filter.pressSequentially("appr");
        assertThat(dialog.getByRole(AriaRole.OPTION)).hasCount(1);
        assertThat(dialog.getByRole(AriaRole.OPTION).first()).containsText("Human approval");
        page.keyboard().press("Enter");
        assertThat(dialog).isHidden();
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.some(n => n.type === 'human')");
        String added = (String) page.evaluate("() => window.tokenflowDesigner.draft.nodes.find(n => n.type === 'human').id");
        assertThat(canvas.hasClass(added, "kind-human")).isTrue();
        assertThat(page.locator("#inspector h2")).hasText("Node " + added);
        assertThat(canvas.canvas()).isFocused();

        page.keyboard().press("Control+k");
        filter.pressSequentially("undo");
        page.keyboard().press("ArrowDown");
        assertThat(dialog.getByRole(AriaRole.OPTION).first()).hasAttribute("aria-selected", "true");
        page.keyboard().press("Enter");
        page.waitForFunction("() => !window.tokenflowDesigner.draft.nodes.some(n => n.type === 'human')");

        page.keyboard().press("Control+k");
        filter.pressSequentially("zzz");
        assertThat(dialog).containsText("Nothing matches 'zzz'");
        page.keyboard().press("Escape");
        assertThat(dialog).isHidden();
        assertThat(canvas.canvas()).isFocused();
        assertThat(problems).isEmpty();
    }

    @Test
    void copiesTwoConnectedNodesIntoAnotherWorkflowWithFreshIdsWhereTheyClash(Page page) {
        String from = create(page, "{\"name\": \"" + unique("copy-from") + "\", \"nodes\": ["
                + "{\"id\": \"start\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}, \"ui\": {\"x\": 0, "
                + "\"y\": 0}, \"branch\": {\"type\": \"conditional\", \"rules\": [{\"condition\": {\"type\": \"cel\", "
                + "\"expression\": \"true\"}, \"next_nodes\": [\"review\"]}], \"default\": [\"other\"]}},"
                + "{\"id\": \"review\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}, \"input\": "
                + "{\"seen\": \"${nodes.start.output}\"}, \"ui\": {\"x\": 0, \"y\": 150}},"
                + "{\"id\": \"other\", \"type\": \"function\", \"config\": {\"function\": \"noop\"}, \"ui\": {\"x\": "
                + "250, \"y\": 150}}], \"edges\": [{\"from\": \"start\", \"to\": \"review\"}, {\"from\": \"start\", "
                + "\"to\": \"other\"}]}");
        String to = create(page, chain(unique("copy-to"), 1).replace("\"n0\"", "\"start\""));
        openInDesigner(page, from);
        DesignerCanvas canvas = new DesignerCanvas(page);
        canvas.click("start");
        page.keyboard().down("Shift");
        canvas.click("review");
        page.keyboard().up("Shift");
        page.waitForFunction("() => window.tokenflowDesigner.canvas.selection().nodes.length === 2");
        page.keyboard().press("Control+c");
        assertThat(page.locator("#toasts")).containsText("Copied 2 nodes");

        openInDesigner(page, to);
        canvas.canvas().focus();
        page.keyboard().press("Control+v");
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.length === 3");
        assertThat(page.evaluate("() => window.tokenflowDesigner.canvas.selection().nodes.sort().join()"))
                .isEqualTo("review,start_1");
        page.keyboard().press("Control+s");
        assertThat(page.locator("#toasts")).containsText("Saved as version 2");
        Object stored = page.evaluate("() => fetch('/api/v1/workflows/" + to + "').then(r => r.json()).then(w => "
                + "[w.version, w.dsl.nodes.map(n => n.id).join(), w.dsl.edges.map(e => e.from + '>' + e.to).join(), "
                + "w.dsl.nodes[1].branch.rules[0].next_nodes.join(), w.dsl.nodes[1].branch.default.length, "
                + "w.dsl.nodes[2].input.seen].join(' | '))");
        assertThat(stored).isEqualTo("2 | start,start_1,review | start_1>review | review | 0 | ${nodes.start_1.output}");

        page.keyboard().press("Control+z");
        page.waitForFunction("() => window.tokenflowDesigner.draft.nodes.length === 1");
        page.evaluate("() => localStorage.setItem('tokenflow.designer.clipboard', "
                + "JSON.stringify({text: '{\"format\": \"tokenflow-nodes\", \"nodes\": []}', system: false}))");
        page.keyboard().press("Control+v");
        assertThat(page.locator("#toasts").getByRole(AriaRole.ALERT))
                .containsText("Nothing pasted: expected nodes copied in the designer, but it holds no nodes");
        assertThat(new DesignerCanvas(page).nodeCount()).isEqualTo(1);
        assertThat(problems).isEmpty();
    }

    @Test
    void theOverviewShowsTheViewAndMovesItOnAClick(Page page) {
        openInDesigner(page, create(page, chain(unique("overview"), 30)));
        Locator overview = page.getByLabel(Pattern.compile("^Overview of the whole graph"));
        assertThat(overview).isVisible();
        page.keyboard().press("+");
        page.keyboard().press("+");
        Object before = page.evaluate("() => JSON.stringify(window.tokenflowDesigner.canvas.cy.extent())");
        BoundingBox box = overview.boundingBox();
        page.mouse().click(box.x + box.width / 2, box.y + box.height - 8);
        page.waitForFunction("b => JSON.stringify(window.tokenflowDesigner.canvas.cy.extent()) !== b", before);
        assertThat(page.evaluate("() => window.tokenflowDesigner.canvas.cy.extent().y2 > "
                + "window.tokenflowDesigner.canvas.cy.getElementById('n29').position('y')")).isEqualTo(true);

        page.evaluate("() => window.tokenflowDesigner.minimap.lastDrawMs = undefined");
        new DesignerCanvas(page).drag("n28", 60, 0);
        page.waitForFunction("() => window.tokenflowDesigner.minimap.lastDrawMs !== undefined");

        Locator toggle = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Overview"));
        toggle.click();
        assertThat(overview).isHidden();
        assertThat(toggle).hasAttribute("aria-expanded", "false");
        toggle.click();
        assertThat(overview).isVisible();
        assertThat(problems).isEmpty();
    }

    @Test
    void theOverviewOfTwoHundredNodesRedrawsWithinAFrame(Page page) {
        openInDesigner(page, create(page, chain(unique("overview-200"), 200)));
        DesignerCanvas canvas = new DesignerCanvas(page);
        assertThat(canvas.nodeCount()).isEqualTo(200);
        page.keyboard().press("f");
        List<Double> draws = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            page.evaluate("() => window.tokenflowDesigner.minimap.lastDrawMs = undefined");
            page.keyboard().press(i % 2 == 0 ? "+" : "-");
            page.waitForFunction("() => window.tokenflowDesigner.minimap.lastDrawMs !== undefined");
            draws.add(number(page.evaluate("() => window.tokenflowDesigner.minimap.lastDrawMs")));
        }
        System.out.println("Overview of 200 nodes, redraw after a zoom (ms): " + draws);
        assertThat(draws.stream().mapToDouble(Double::doubleValue).min().orElseThrow()).isLessThan(16);
    }

    @AfterEach
    void noScriptFailed() {
        assertThat(problems).as("errors and warnings in the page's console").isEmpty();
    }

    /** Signs in and stores a workflow through the REST API; returns its name. */
    private String create(Page page, String document) {
        if (!page.url().startsWith(baseUrl())) {
            page.onPageError(problems::add);
            // network lines ("Failed to load resource") are the browser's log of a status, such as the 422 of a
            // refused save that the test provokes; script errors and warnings are what must not happen
            page.onConsoleMessage(message -> {
                if (("error".equals(message.type()) || "warning".equals(message.type()))
                        && !message.text().startsWith("Failed to load resource")) {
                    problems.add(message.text() + " at " + message.location());
                }
            });
            SignIn.andOpen(page, baseUrl(), "/workflows");
        }
        Object status = page.evaluate("d => fetch('/api/v1/workflows', {method: 'POST', body: d, headers: "
                + "{'Content-Type': 'application/json', [document.querySelector('meta[name=_csrf_header]').content]:"
                + " document.querySelector('meta[name=_csrf]').content}}).then(r => r.status)", document);
        assertThat(status).isEqualTo(201);
        return (String) page.evaluate("d => JSON.parse(d).name", document);
    }

    private void openInDesigner(Page page, String workflow) {
        page.setViewportSize(1440, 900);
        page.navigate(baseUrl() + "/workflows/" + workflow + "/editor");
        new DesignerCanvas(page).ready();
    }

    private static BoundingBox canvasBox(Page page) {
        return page.locator("#canvas").boundingBox();
    }

    /** A chain of {@code length} function nodes n0 → n1 → …, laid out top to bottom. */
    private static String chain(String name, int length) {
        StringBuilder nodes = new StringBuilder();
        StringBuilder edges = new StringBuilder();
        for (int i = 0; i < length; i++) {
            nodes.append(i == 0 ? "" : ", ").append("{\"id\": \"n").append(i).append("\", \"type\": \"function\", ")
                    .append("\"config\": {\"function\": \"noop\"}, \"ui\": {\"x\": 0, \"y\": ").append(i * 110)
                    .append("}}");
            if (i > 0) {
                edges.append(i == 1 ? "" : ", ").append("{\"from\": \"n").append(i - 1).append("\", \"to\": \"n")
                        .append(i).append("\"}");
            }
        }
        return "{\"name\": \"" + name + "\", \"nodes\": [" + nodes + "], \"edges\": [" + edges + "]}";
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private String baseUrl() {
        return "http://localhost:" + port;
    }
}
