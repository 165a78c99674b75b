package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.microsoft.playwright.Mouse;
import com.microsoft.playwright.Page;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tokenflow.security.ApiTokenService;
import io.tokenflow.security.Scope;
import tools.jackson.databind.JsonNode;

/**
 * The designer's canvas as a person sees and handles it: a shape and an icon per kind of node, labels readable at
 * every zoom, level edge labels clear of the nodes, and a node's body that always moves the node (edges come from
 * the dot under a node, or Alt+drag) — on workflows created through the REST API, checked back through it.
 */
@BrowserTest
class DesignerCanvasE2ETests {

    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));
    private static final String CY = "window.tokenflowDesigner.canvas.cy";
    private static final String LONG_CONDITION = "output.score > 80 && output.region == 'emea' && !has(output.veto)";

    @LocalServerPort
    int port;
    @Autowired
    ApiTokenService tokens;

    private final List<String> consoleProblems = new ArrayList<>();

    @Test
    void aNodeDraggedAtFitZoomOnATwoHundredNodeWorkflowMovesAndAddsNoEdge(Page page) throws Exception {
        BearerApi api = api();
        String workflow = api.call("POST", "/api/v1/workflows", LaneWorkflow.json(unique("drag"), 10, 19, 8), 201)
                .get("id").asString();
        open(page, workflow);
        assertThat(zoom(page)).isLessThan(0.3);
        double[] before = modelPosition(page, "lane4_10");

        dragFromBottomEdge(page, "lane4_10", 60, 40);

        double[] after = modelPosition(page, "lane4_10");
        assertThat(after[0] - before[0]).isCloseTo(60 / zoom(page), org.assertj.core.data.Offset.offset(2 / zoom(page)));
        assertThat(after[1] - before[1]).isCloseTo(40 / zoom(page), org.assertj.core.data.Offset.offset(2 / zoom(page)));
        assertThat(draftEdges(page)).isEqualTo(208);
        page.locator("#canvas").focus();
        page.keyboard().press("Control+s");
        JsonNode saved = await().atMost(Duration.ofSeconds(20)).until(() -> api.call("GET", "/api/v1/workflows/"
                + workflow, null, 200), snapshot -> snapshot.get("version").asInt() == 2);
        assertThat(saved.get("dsl").get("edges").size()).isEqualTo(208);
        JsonNode ui = node(saved, "lane4_10").get("ui");
        assertThat(ui.get("x").asDouble()).isCloseTo(after[0], org.assertj.core.data.Offset.offset(1.0));
        assertThat(ui.get("y").asDouble()).isCloseTo(after[1], org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void aWorkflowWithoutPositionsOpensLaidOutTopToBottomAndLTidiesItAgainAfterANodeWasMoved(Page page)
            throws Exception {
        BearerApi api = api();
        String workflow = api.call("POST", "/api/v1/workflows", LaneWorkflow.json(unique("laid-out"), 3, 4, 2), 201)
                .get("id").asString();
        open(page, workflow);
        Map<String, double[]> opened = new java.util.HashMap<>();
        for (String id : List.of("start", "end", "lane0_0", "lane0_5", "lane1_0", "lane1_3", "lane2_0", "lane2_3")) {
            opened.put(id, modelPosition(page, id));
        }
        // top to bottom: every edge runs down to a node at least a node's height below, and no node covers another
        assertThat((List<?>) page.evaluate("() => " + CY + ".edges().filter(e => e.target().position().y"
                + " < e.source().position().y + 60).map(e => e.id())")).as("edges not running down").isEmpty();
        assertThat(opened.get("end")[1]).isGreaterThan(opened.get("lane0_5")[1]);
        assertThat(overlappingNodes(page)).as("nodes drawn on top of each other").isEmpty();

        dragFromBottomEdge(page, "lane1_3", 300, -200);
        assertThat(modelPosition(page, "lane1_3")[1]).isLessThan(opened.get("lane1_3")[1] - 100);
        page.locator("#canvas").focus();
        page.keyboard().press("l");

        page.waitForFunction("y => Math.abs(" + CY + ".getElementById('lane1_3').position().y - y) < 1",
                opened.get("lane1_3")[1]);
        for (Map.Entry<String, double[]> node : opened.entrySet()) {
            assertThat(modelPosition(page, node.getKey())).as(node.getKey())
                    .containsExactly(node.getValue(), org.assertj.core.data.Offset.offset(1.0));
        }
        page.keyboard().press("Control+s");
        JsonNode saved = await().atMost(Duration.ofSeconds(20)).until(() -> api.call("GET", "/api/v1/workflows/"
                + workflow, null, 200), snapshot -> snapshot.get("version").asInt() == 2);
        JsonNode ui = node(saved, "lane1_3").get("ui");
        assertThat(new double[] {ui.get("x").asDouble(), ui.get("y").asDouble()})
                .containsExactly(opened.get("lane1_3"), org.assertj.core.data.Offset.offset(1.0));
    }

    @Test
    void aNodesBodyMovesItAtEveryZoomAndTheDotUnderItDrawsAnEdgeOnlyOutsideIt(Page page) throws Exception {
        String workflow = api().call("POST", "/api/v1/workflows", LaneWorkflow.json(unique("zooms"), 6, 6, 0), 201)
                .get("id").asString();
        open(page, workflow);
        int edges = draftEdges(page);
        page.locator("#canvas").focus();
        while (zoom(page) > 0.1) {
            page.keyboard().press("-");
        }
        while (zoom(page) < 1.6) {
            String node = nodeNearestTheCentre(page, Set.of());
            assertThat(node).as("a node in view at zoom %.2f", zoom(page)).isNotNull();
            double[] before = modelPosition(page, node);
            double by = Math.max(8, 30 * zoom(page));
            dragFromBottomEdge(page, node, by, 0);
            assertThat(modelPosition(page, node)[0] - before[0]).as("x of %s at zoom %.2f", node, zoom(page))
                    .isCloseTo(by / zoom(page), org.assertj.core.data.Offset.offset(2 / zoom(page)));
            dragFromBottomEdge(page, node, -by, 0);
            assertThat(draftEdges(page)).as("edges after dragging at zoom %.2f", zoom(page)).isEqualTo(edges);
            page.locator("#canvas").focus();
            page.keyboard().press("+");
        }

        String from = nodeNearestTheCentre(page, Set.of());
        double[] at = new DesignerCanvas(page).center(from);
        page.mouse().move(at[0], at[1], new Mouse.MoveOptions().setSteps(4));
        assertThat(page.locator("#edge-handle")).isVisible();
        var dot = page.locator("#edge-handle").boundingBox();
        double bottom = ((Number) page.evaluate("id => { const cy = " + CY + "; const b = cy.getElementById(id)"
                + ".renderedBoundingBox({includeLabels: false}); return cy.container().getBoundingClientRect().top"
                + " + b.y2; }", from)).doubleValue();
        assertThat(dot.y).as("the dot starts below the node's box").isGreaterThanOrEqualTo(bottom);
    }

    @Test
    void altDragFromANodeDrawsAnEdgeWhereNodesAreTooSmallForTheDot(Page page) throws Exception {
        String workflow = api().call("POST", "/api/v1/workflows", LaneWorkflow.json(unique("alt"), 10, 19, 8), 201)
                .get("id").asString();
        open(page, workflow);
        DesignerCanvas canvas = new DesignerCanvas(page);
        double[] from = canvas.center("lane4_10");
        double[] to = canvas.center("lane5_12");
        double[] before = modelPosition(page, "lane4_10");
        page.mouse().move(from[0], from[1], new Mouse.MoveOptions().setSteps(4));
        assertThat(page.locator("#edge-handle")).isHidden();
        page.keyboard().down("Alt");
        page.mouse().down();
        page.mouse().move(to[0], to[1], new Mouse.MoveOptions().setSteps(15));
        page.mouse().up();
        page.keyboard().up("Alt");
        page.waitForFunction("() => window.tokenflowDesigner.draft.edges.some(e => e.from === 'lane4_10'"
                + " && e.to === 'lane5_12')");
        assertThat(draftEdges(page)).isEqualTo(209);
        assertThat(modelPosition(page, "lane4_10")).containsExactly(before);
    }

    @Test
    void everyKindOfNodeHasItsOwnShapeOrIconAndItsIdAndTypeAsLabel(Page page) throws Exception {
        openKindsCloseUp(page);
        Map<String, String> looks = Map.ofEntries(Map.entry("start", "task"), Map.entry("fetch", "http"),
                Map.entry("shape", "data"), Map.entry("check", "branch"), Map.entry("again", "loop"),
                Map.entry("each", "map"), Map.entry("merge", "join"), Map.entry("approve", "human"),
                Map.entry("think", "agent"), Map.entry("pause", "timer"), Map.entry("paid", "signal"),
                Map.entry("call", "subflow"));
        Set<String> drawings = new HashSet<>();
        for (Map.Entry<String, String> look : looks.entrySet()) {
            List<?> drawn = (List<?>) page.evaluate("id => { const n = " + CY + ".getElementById(id);"
                    + " return [n.classes().join(' '), n.style('shape'), n.style('background-image'), n.style('label'),"
                    + " n.data('typeName')]; }", look.getKey());
            assertThat((String) drawn.get(0)).as(look.getKey()).contains("look-" + look.getValue());
            assertThat((String) drawn.get(2)).as("icon of " + look.getKey()).startsWith("data:image/svg+xml");
            assertThat(drawn.get(3)).as("label of " + look.getKey()).isEqualTo(look.getKey());
            drawings.add(drawn.get(1) + " " + drawn.get(2).toString().replaceAll("%3Ctext.*", ""));
        }
        assertThat(drawings).as("a shape and icon of its own for each kind").hasSize(looks.size());
        assertThat(page.evaluate("() => " + CY + ".getElementById('shape').data('typeName')")).isEqualTo("Transform");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-kinds.png")));
    }

    @Test
    void labelsStayReadableFromFitZoomOnTwoHundredNodesToCloseUp(Page page) throws Exception {
        String workflow = api().call("POST", "/api/v1/workflows", LaneWorkflow.json(unique("labels"), 10, 19, 8), 201)
                .get("id").asString();
        open(page, workflow);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("designer-200-fit.png")));
        page.locator("#canvas").focus();
        Set<String> bands = new HashSet<>();
        while (zoom(page) < 1.5) {
            page.waitForFunction("() => { const b = Tokenflow.CanvasStyle.bandOf(" + CY + ".zoom()) || 'near';"
                    + " return document.getElementById('canvas').dataset.zoomBand === b; }");
            bands.add((String) page.evaluate("() => document.getElementById('canvas').dataset.zoomBand"));
            List<?> small = (List<?>) page.evaluate("() => { const cy = " + CY + "; return cy.elements()"
                    + ".filter(e => e.style(e.isNode() ? 'label' : 'target-label') !== '' && e.pstyle('font-size').pfValue * cy.zoom() < 9.9)"
                    + ".map(e => e.id() + ' ' + (e.pstyle('font-size').pfValue * cy.zoom()).toFixed(1)); }");
            assertThat(small).as("labels drawn under 10 px at zoom %.2f", zoom(page)).isEmpty();
            page.keyboard().press("+");
        }
        assertThat(bands).containsExactlyInAnyOrder("zoom-tiny", "zoom-far", "zoom-mid", "near");
    }

    @Test
    void edgeLabelsAreLevelOnABackgroundClearOfNodesAndShowTheirWholeTextOnHover(Page page) throws Exception {
        openKindsCloseUp(page);
        List<?> faults = (List<?>) page.evaluate("() => { const cy = " + CY + "; const boxes = cy.nodes().map(n =>"
                + " n.boundingBox({includeLabels: false})); return cy.edges('[label != \"\"]').map(e => {"
                + " const l = e.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true});"
                + " const under = boxes.some(b => b.x1 < l.x2 && l.x1 < b.x2 && b.y1 < l.y2 && l.y1 < b.y2);"
                + " const others = cy.edges('[label != \"\"]').not(e).some(o => { const b = o.boundingBox("
                + "{includeNodes: false, includeEdges: false, includeLabels: true});"
                + " return b.x1 < l.x2 && l.x1 < b.x2 && b.y1 < l.y2 && l.y1 < b.y2; });"
                + " return (e.style('target-text-rotation') !== 'none' ? 'rotated ' : '') + (under ? 'under a node ' : '')"
                + " + (others ? 'over another label ' : '')"
                + " + (e.pstyle('text-background-opacity').value < 0.5 ? 'no background ' : '') + e.id(); })"
                + ".filter(x => !x.startsWith('e:') && !x.startsWith('r:')); }");
        assertThat(faults).isEmpty();
        assertThat(page.evaluate("() => " + CY + ".edges('[full]').filter(e => e.data('full').length > 28)"
                + ".map(e => e.data('label'))")).asList().containsExactly(LONG_CONDITION.substring(0, 27) + "…");

        List<?> label = (List<?>) page.evaluate("() => { const cy = " + CY + "; const e = cy.edges()"
                + ".filter(x => x.data('full') && x.data('full').length > 28)[0]; const b = e.renderedBoundingBox("
                + "{includeNodes: false, includeEdges: false, includeLabels: true}); const r = cy.container()"
                + ".getBoundingClientRect(); return [r.left + (b.x1 + b.x2) / 2, r.top + (b.y1 + b.y2) / 2]; }");
        page.mouse().move(((Number) label.get(0)).doubleValue(), ((Number) label.get(1)).doubleValue(),
                new Mouse.MoveOptions().setSteps(4));
        assertThat(page.locator("#canvas")).hasAttribute("title", LONG_CONDITION);
    }

    @AfterEach
    void noConsoleProblems() {
        assertThat(consoleProblems).as("errors and warnings in the browser console").isEmpty();
    }

    /** Opens the workflow of every kind and zooms in with + until labels show in full (the "near" band). */
    private void openKindsCloseUp(Page page) throws Exception {
        open(page, kindsWorkflow(api()));
        page.locator("#canvas").focus();
        while (zoom(page) < 0.8) {
            page.keyboard().press("+");
        }
        page.waitForFunction("() => document.getElementById('canvas').dataset.zoomBand === 'near'");
    }

    /** A workflow with a node of every kind the canvas draws (and the workflow its sub-workflow node calls). */
    private static String kindsWorkflow(BearerApi api) throws Exception {
        String callee = api.call("POST", "/api/v1/workflows", """
                {"name": "%s", "nodes": [{"id": "bill", "type": "function", "config": {"function": "echo"}}]}"""
                .formatted(unique("callee")), 201).get("name").asString();
        return api.call("POST", "/api/v1/workflows", """
                {"name": "%s", "nodes": [
                  {"id": "start", "type": "function", "config": {"function": "echo"}},
                  {"id": "fetch", "type": "http", "config": {"url": "https://example.com/orders"}},
                  {"id": "shape", "type": "transform", "config": {"fields": {"total": "input.total"}}},
                  {"id": "check", "type": "conditional", "config": {"condition": "score > 80"}},
                  {"id": "again", "type": "loop", "config": {"max_iterations": 5}},
                  {"id": "each", "type": "function", "config": {"function": "echo"},
                   "map": {"items": "${workflow.input.orders}", "concurrency": 2}},
                  {"id": "merge", "type": "function", "config": {"function": "echo"}, "wait_for_all": true},
                  {"id": "approve", "type": "human", "human": {"title": "Approve", "approvers": ["role:approver"]}},
                  {"id": "think", "type": "agent", "agent": {"model": "gpt-4", "prompt": "Summarise the order."}},
                  {"id": "pause", "type": "wait", "wait": {"duration": "PT1M"}},
                  {"id": "paid", "type": "signal", "signal": {"name": "payment", "key": "${workflow.input.id}"}},
                  {"id": "call", "type": "workflow", "workflow": {"name": "%s", "version": 1}}],
                 "edges": [{"from": "start", "to": "fetch"}, {"from": "fetch", "to": "shape"},
                  {"from": "fetch", "to": "each"}, {"from": "shape", "to": "merge"}, {"from": "each", "to": "merge"},
                  {"from": "merge", "to": "check"},
                  {"from": "check", "to": "again", "condition": "%s"},
                  {"from": "check", "to": "approve", "condition": "output.score <= 80"},
                  {"from": "approve", "to": "think"}, {"from": "think", "to": "pause"},
                  {"from": "pause", "to": "paid"}, {"from": "paid", "to": "call"}]}
                """.formatted(unique("kinds"), callee, LONG_CONDITION.replace("\"", "\\\"")), 201)
                .get("id").asString();
    }

    /** Hovers the node, then presses just inside its bottom edge (where an edge handle used to cover it) and drags. */
    private void dragFromBottomEdge(Page page, String node, double dx, double dy) {
        List<?> box = (List<?>) page.evaluate("id => { const cy = " + CY + "; const b = cy.getElementById(id)"
                + ".renderedBoundingBox({includeLabels: false}); const r = cy.container().getBoundingClientRect();"
                + " return [r.left + (b.x1 + b.x2) / 2, r.top + b.y2 - Math.min(3, b.h / 4), r.top + b.y1]; }", node);
        double x = ((Number) box.get(0)).doubleValue();
        double y = ((Number) box.get(1)).doubleValue();
        double top = ((Number) box.get(2)).doubleValue();
        double[] before = modelPosition(page, node);
        page.mouse().move(x, top - 20);
        page.mouse().move(x, y, new Mouse.MoveOptions().setSteps(5));
        page.mouse().down();
        page.mouse().move(x + dx, y + dy, new Mouse.MoveOptions().setSteps(10));
        assertThat(page.locator("#edge-handle")).isHidden();
        page.mouse().up();
        page.waitForFunction("a => { const n = window.tokenflowDesigner.draft.nodes.find(x => x.id === a[0]);"
                + " return n.ui && Math.abs(n.ui.x - a[1]) > 1; }", List.of(node, before[0]));
    }

    private static String nodeNearestTheCentre(Page page, Set<String> except) {
        return (String) page.evaluate("except => { const cy = " + CY + "; const c = {x: cy.width() / 2,"
                + " y: cy.height() / 2}; let best = null, d = Infinity; cy.nodes().forEach(n => {"
                + " const p = n.renderedPosition(); const e = Math.hypot(p.x - c.x, p.y - c.y);"
                + " const b = n.renderedBoundingBox({includeLabels: false}); const inside = b.x1 > 0 && b.y1 > 0"
                + " && b.x2 < cy.width() - 60 && b.y2 < cy.height() - 10;"
                + " if (e < d && inside && !except.includes(n.id())) { d = e; best = n.id(); } }); return best; }",
                List.copyOf(except));
    }

    private static double[] modelPosition(Page page, String node) {
        List<?> p = (List<?>) page.evaluate("id => { const p = " + CY + ".getElementById(id).position();"
                + " return [p.x, p.y]; }", node);
        return new double[] {((Number) p.get(0)).doubleValue(), ((Number) p.get(1)).doubleValue()};
    }

    /** Pairs of nodes whose boxes (labels left out) overlap. */
    private static List<?> overlappingNodes(Page page) {
        return (List<?>) page.evaluate("() => { const boxes = " + CY + ".nodes().map(n => [n.id(),"
                + " n.boundingBox({includeLabels: false})]); const pairs = []; boxes.forEach(([a, p], i) =>"
                + " boxes.slice(i + 1).forEach(([b, q]) => { if (p.x1 < q.x2 && q.x1 < p.x2 && p.y1 < q.y2"
                + " && q.y1 < p.y2) pairs.push(a + '/' + b); })); return pairs; }");
    }

    private static double zoom(Page page) {
        return ((Number) page.evaluate("() => " + CY + ".zoom()")).doubleValue();
    }

    private static int draftEdges(Page page) {
        return ((Number) page.evaluate("() => window.tokenflowDesigner.draft.edges.length")).intValue();
    }

    private static JsonNode node(JsonNode snapshot, String id) {
        for (JsonNode node : snapshot.get("dsl").get("nodes")) {
            if (id.equals(node.get("id").asString())) {
                return node;
            }
        }
        throw new AssertionError("Expected node '" + id + "' in the saved workflow, but it has none");
    }

    /** Signs in and opens the workflow's designer at 1440×900; waits for the first drawn frame and the first check. */
    private void open(Page page, String workflow) {
        page.onConsoleMessage(message -> {
            // the application has no favicon (not the designer's): Chromium's request for it is no script's problem
            boolean favicon = message.location().endsWith("/favicon.ico:0:0");
            if (("error".equals(message.type()) || "warning".equals(message.type())) && !favicon) {
                consoleProblems.add(message.type() + ": " + message.text() + " at " + message.location());
            }
        });
        page.onPageError(consoleProblems::add);
        page.setViewportSize(1440, 900);
        SignIn.andOpen(page, "http://localhost:" + port, "/workflows/" + workflow + "/editor");
        page.waitForSelector("#canvas[data-drawn]");
        new DesignerCanvas(page).ready();
    }

    private BearerApi api() {
        return new BearerApi(port, tokens.issueIn(SignIn.ADMIN, "default", "designer canvas e2e",
                Set.of(Scope.values()), null).secret());
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
