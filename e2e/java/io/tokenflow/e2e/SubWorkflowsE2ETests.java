package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.nio.charset.StandardCharsets;
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
 * A designer drops a Sub-workflow node from the palette, picks the workflow it calls in the inspector and saves; a
 * run of it calls the child, and the run pages link parent and child both ways.
 */
@BrowserTest
class SubWorkflowsE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void aDesignerAddsASubWorkflowNodeAndTheRunPagesLinkParentAndChild(Page page) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String child = "billing-" + suffix;
        String parent = "order-" + suffix;
        page.setViewportSize(1440, 900);
        SignIn.andOpen(page, base(), "/workflows");
        post(page, "/api/v1/workflows", "{\"name\": \"" + child + "\", \"nodes\": [{\"id\": \"price\", \"type\": "
                + "\"function\", \"config\": {\"function\": \"echo\"}}]}");
        post(page, "/api/v1/workflows", "{\"name\": \"" + parent + "\", \"nodes\": [{\"id\": \"start\", \"type\": "
                + "\"function\", \"config\": {\"function\": \"echo\"}}]}");

        page.navigate(base() + "/workflows/" + parent);
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
        DesignerCanvas canvas = new DesignerCanvas(page).ready();
        double[] start = canvas.center("start");
        var box = canvas.canvas().boundingBox();
        String call = canvas.drop("Sub-workflow", start[0] - box.x, start[1] - box.y + 150);
        canvas.click(call);
        Locator inspector = page.locator("#inspector");
        inspector.getByLabel("Workflow", new Locator.GetByLabelOptions().setExact(true)).selectOption(child);
        inspector.getByLabel("Version", new Locator.GetByLabelOptions().setExact(true)).fill("1");
        page.waitForFunction("a => { const n = window.tokenflowDesigner.draft.nodes.find(x => x.id === a[0]); "
                + "return n.workflow.name === a[1] && n.workflow.version === 1; }", java.util.List.of(call, child));
        assertThat(inspector.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Open " + child
                + " in a new tab"))).hasAttribute("href", "/workflows/" + child);
        canvas.connect("start", call);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save").setExact(true)).click();
        assertThat(page.locator("#save-state")).hasText("Saved · version 2");

        JsonNode started = JSON.readTree(post(page, "/api/v1/runs", "{\"workflow\": \"" + parent
                + "\", \"inputs\": {\"order\": \"o-9\"}}").text());
        page.navigate(base() + "/runs/" + started.get("id").asString());
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        page.reload();
        Locator children = page.locator("#run-calls .run-children");
        assertThat(children).containsText(call);
        assertThat(children).containsText(child + " v1");
        children.getByRole(AriaRole.LINK).first().click();
        assertThat(page.locator("h1")).containsText(child);
        assertThat(page.locator("#run-calls .run-parent")).containsText("node " + call);
        page.locator("#run-calls .run-parent").getByRole(AriaRole.LINK).click();
        assertThat(page.locator("h1")).containsText(parent);
    }

    private APIResponse post(Page page, String path, String body) {
        String credentials = Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        APIResponse response = page.request().post(base() + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", "Basic " + credentials));
        org.assertj.core.api.Assertions.assertThat(response.status()).as(response.text()).isBetween(200, 201);
        return response;
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
