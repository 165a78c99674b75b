package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.node.ObjectNode;

/**
 * The inbox as a list beside the selected approval's detail: newest first or most urgent first, SLA badges that tick
 * into "overdue", and a detail that shows the human node's form fields formatted by type (or, without a form, the
 * payload's top-level fields but its headers), the raw payload folded away. The form itself goes in through the REST
 * API, which refuses a bad one at its pointer. Timed-out approvals stay pending here (no timeout checks run).
 */
@InboxBrowserTest
class ApprovalsInboxE2ETests {

    @LocalServerPort
    int port;

    @Test
    void theDetailShowsTheFormFieldsByTypeAndTheRawPayloadOnlyWhenUnfolded(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        String withForm = runs.create(InboxRuns.fixture("valid/hitl-form"));
        ObjectNode plain = InboxRuns.fixture("valid/hitl-form");
        ((ObjectNode) plain.at("/nodes/1/human")).remove("form");
        String withoutForm = runs.create(plain);
        UUID formRun = runs.start(withForm, "{\"amount\": 250000.5, \"supplier\": \"Acme\"}");
        UUID plainRun = runs.start(withoutForm, "{\"amount\": 3, \"supplier\": \"Beta\"}");

        runs.open("/approvals");
        runs.row(formRun).click();
        Locator detail = runs.detail(formRun);
        assertThat(detail).isVisible();
        assertThat(runs.detail(plainRun)).isHidden();
        assertThat(field(detail, "amount")).hasText(Pattern.compile("Amount\\s*250,000\\.5"));
        assertThat(field(detail, "supplier")).hasText(Pattern.compile("Supplier\\s*Acme"));
        assertThat(field(detail, "urgent")).hasText(Pattern.compile("Urgent\\s*Yes"));
        assertThat(field(detail, "quote").getByRole(AriaRole.LINK)).hasAttribute("href", "https://quotes.example/q-17");
        assertThat(detail.getByText("Bearer secret")).isHidden();
        detail.getByText("Raw payload").click();
        assertThat(detail.getByText(Pattern.compile("Bearer secret"))).isVisible();
        assertThat(detail.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName(formRun.toString())))
                .hasAttribute("href", "/runs/" + formRun);

        runs.row(plainRun).click();
        Locator defaults = runs.detail(plainRun);
        assertThat(field(defaults, "supplier")).hasText(Pattern.compile("supplier\\s*Beta"));
        assertThat(field(defaults, "urgent")).hasText(Pattern.compile("urgent\\s*Yes"));
        assertThat(defaults.locator("[data-field='headers']")).hasCount(0);
        assertThat(defaults.getByText("Bearer secret")).isHidden();
        assertThat(page).hasURL(Pattern.compile("selected=" + runs.approval(plainRun).get("id").asString()));
        assertThat(runs.complaints()).isEmpty();
    }

    @Test
    void newestFirstByDefaultMostUrgentOnRequestWithBadgesThatTickIntoOverdue(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        // one workflow in two versions, and the inbox filtered to it: other tests' approvals in a shared database
        // (more overdue, or newer) would otherwise fill the first page of either order
        String workflow = runs.create(InboxRuns.formTimingOutAfter("PT4S"));
        UUID urgent = runs.start(workflow, "{\"amount\": 1}");
        APIResponse patched = runs.patchWorkflow(workflow, 1,
                "[{\"op\": \"replace\", \"path\": \"/nodes/1/human/timeout\", \"value\": \"PT48H\"}]");
        assertThat(patched.status()).as(patched.text()).isEqualTo(200);
        UUID newest = runs.start(workflow, "{\"amount\": 2}");

        runs.open("/approvals?workflow=" + workflow);
        Locator rows = page.locator("#inbox-list [data-run-id]");
        assertThat(runs.row(urgent)).isVisible();
        assertThat(runs.row(newest)).isVisible();
        assertThat(rows).hasCount(2);
        assertThat(position(rows, newest)).isLessThan(position(rows, urgent));
        assertThat(runs.row(newest).locator(".sla")).hasText(Pattern.compile("^1 d 23 h left$"));
        Locator badge = runs.row(urgent).locator(".sla");
        assertThat(badge).hasText(Pattern.compile("^overdue \\d+ s$"));
        assertThat(badge).hasClass(Pattern.compile("sla-overdue"));
        assertThat(badge).not().hasText(badge.textContent());

        page.getByLabel("Sort").selectOption("urgent");
        assertThat(page).hasURL(Pattern.compile("sort=urgent"));
        assertThat(page).hasURL(Pattern.compile("workflow=" + workflow));
        assertThat(page.getByLabel("Sort")).hasValue("urgent");
        assertThat(rows.first()).isVisible();
        assertThat(position(rows, urgent)).isLessThan(position(rows, newest));
        assertThat(runs.complaints()).isEmpty();
    }

    @Test
    void aFormGoesInThroughTheRestApiAndABadOneIsRefusedAtItsPointer(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        APIResponse schema = page.request().get(runs.base() + "/api/v1/schema/workflow");
        assertThat(InboxRuns.JSON.readTree(schema.text()).at("/$defs/form/properties/fields/items/properties/type/enum")
                .toString()).isEqualTo("[\"text\",\"number\",\"boolean\",\"datetime\",\"url\",\"json\"]");

        ObjectNode workflow = InboxRuns.fixture("valid/hitl-form");
        ((ObjectNode) workflow.at("/nodes/1/human/form/fields/1")).put("name", "amount");
        ((ObjectNode) workflow.at("/nodes/1/human/form/fields/2")).put("pointer", "/output/urgent");
        APIResponse refused = runs.post("/api/v1/workflows", workflow.toString());
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.text()).contains("/nodes/1/human/form/fields/1/name", "/nodes/1/human/form/fields/2/pointer",
                "Expected the form fields of human node 'purchase_approval' to have unique names, but 'amount' is also "
                        + "the name of field 0", "but found '/output/urgent'");

        ObjectNode good = InboxRuns.fixture("valid/hitl-form");
        runs.create(good);
        APIResponse stored = runs.get("/api/v1/workflows/" + good.get("name").asString());
        assertThat(stored.text()).contains("\"pointer\":\"/input/amount\"");
    }

    private static Locator field(Locator detail, String name) {
        return detail.locator("[data-field='" + name + "']");
    }

    private static int position(Locator rows, UUID run) {
        return rows.evaluateAll("(rows, run) => rows.findIndex(row => row.dataset.runId === run)", run.toString())
                instanceof Number index ? index.intValue() : -1;
    }
}
