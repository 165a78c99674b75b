package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.List;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Mouse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;

/**
 * What a user does on the designer's canvas, with the mouse: drop palette items, draw edges from a node's handle,
 * click nodes and edges, drag nodes. Only where to point is read from the page's graph (the canvas is one bitmap).
 */
final class DesignerCanvas {

    private final Page page;

    DesignerCanvas(Page page) {
        this.page = page;
    }

    /** Waits until the editor has drawn the draft and checked it once. */
    DesignerCanvas ready() {
        page.waitForFunction("() => window.tokenflowDesigner && window.tokenflowDesigner.timings.checkedRevision !== undefined");
        return this;
    }

    /** Drags a palette item onto the canvas at (x, y) of the canvas; returns the id the new node got. */
    String drop(String paletteItem, double x, double y) {
        int before = nodeCount();
        page.locator(".palette-item", new Page.LocatorOptions().setHasText(paletteItem)).first()
                .dragTo(canvas(), new Locator.DragToOptions().setTargetPosition(x, y));
        page.waitForFunction("n => window.tokenflowDesigner.draft.nodes.length === n + 1", before);
        return (String) page.evaluate("() => { const nodes = window.tokenflowDesigner.draft.nodes; "
                + "return nodes[nodes.length - 1].id; }");
    }

    /** Hovers the source node, grabs the handle under it and drops the line on the target node. */
    void connect(String from, String to) {
        double[] source = center(from);
        page.mouse().move(source[0], source[1], new Mouse.MoveOptions().setSteps(3));
        Locator handle = page.locator("#edge-handle");
        assertThat(handle).isVisible();
        page.waitForFunction("id => document.getElementById('edge-handle').dataset.node === id", from);
        BoundingBox box = handle.boundingBox();
        page.mouse().move(box.x + box.width / 2, box.y + box.height / 2, new Mouse.MoveOptions().setSteps(3));
        page.mouse().down();
        double[] target = center(to);
        page.mouse().move(target[0], target[1], new Mouse.MoveOptions().setSteps(15));
        page.waitForFunction("id => window.tokenflowDesigner.canvas.cy.getElementById(id).hasClass('eh-target')", to);
        page.mouse().up();
        page.waitForFunction("e => window.tokenflowDesigner.draft.edges.some(x => x.from === e[0] && x.to === e[1])",
                List.of(from, to));
    }

    void click(String node) {
        double[] at = center(node);
        page.mouse().click(at[0], at[1]);
        page.waitForFunction("id => window.tokenflowDesigner.canvas.cy.getElementById(id).selected()", node);
    }

    void clickEdge(String from, String to) {
        Object at = page.evaluate("e => { const cy = window.tokenflowDesigner.canvas.cy; "
                + "const edge = cy.edges().filter(x => x.source().id() === e[0] && x.target().id() === e[1]"
                + " && !x.hasClass('route'))[0]; const p = edge.renderedMidpoint();"
                + " const r = cy.container().getBoundingClientRect(); return [r.left + p.x, r.top + p.y]; }",
                List.of(from, to));
        List<?> point = (List<?>) at;
        page.mouse().click(((Number) point.get(0)).doubleValue(), ((Number) point.get(1)).doubleValue());
    }

    /** Drags a node by (dx, dy) screen pixels and waits for the move to reach the draft. */
    void drag(String node, double dx, double dy) {
        int revision = ((Number) page.evaluate("() => window.tokenflowDesigner.revision")).intValue();
        double[] at = center(node);
        page.mouse().move(at[0], at[1]);
        page.mouse().down();
        page.mouse().move(at[0] + dx, at[1] + dy, new Mouse.MoveOptions().setSteps(8));
        page.mouse().up();
        page.waitForFunction("r => window.tokenflowDesigner.revision > r", revision);
    }

    boolean hasClass(String node, String cssClass) {
        return (Boolean) page.evaluate("a => window.tokenflowDesigner.canvas.cy.getElementById(a[0]).hasClass(a[1])",
                List.of(node, cssClass));
    }

    int nodeCount() {
        return ((Number) page.evaluate("() => window.tokenflowDesigner.draft.nodes.length")).intValue();
    }

    /** The node's centre in page coordinates. */
    double[] center(String node) {
        List<?> point = (List<?>) page.evaluate("id => { const cy = window.tokenflowDesigner.canvas.cy; "
                + "const p = cy.getElementById(id).renderedPosition(); const r = cy.container().getBoundingClientRect();"
                + " return [r.left + p.x, r.top + p.y]; }", node);
        return new double[] {((Number) point.get(0)).doubleValue(), ((Number) point.get(1)).doubleValue()};
    }

    Locator canvas() {
        return page.locator("#canvas");
    }
}
