package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The inbox's filters (workflow, mine, overdue) live in the URL, are applied by the server and hold for what arrives
 * live; the keyboard moves the selection and decides, and the selection stays put while approvals come and go.
 */
@InboxBrowserTest
class InboxFiltersE2ETests {

    @LocalServerPort
    int port;

    @Test
    void aWorkflowFilterHoldsAfterReloadAndForApprovalsThatArriveLive(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        String deals = runs.create(InboxRuns.fixture("valid/hitl-approval"));
        String purchases = runs.create(InboxRuns.fixture("valid/hitl-form"));
        UUID deal = runs.start(deals, "{\"deal_value\": 10}");
        UUID purchase = runs.start(purchases, "{\"amount\": 5}");

        runs.open("/approvals");
        assertThat(runs.row(purchase)).isVisible();
        page.getByLabel("Workflow").selectOption(deals);
        assertThat(page).hasURL(Pattern.compile("workflow=" + deals));
        assertThat(runs.row(deal)).isVisible();
        assertThat(runs.row(purchase)).hasCount(0);
        assertThat(page.locator("#live-status")).hasText("Live");

        UUID otherPurchase = runs.start(purchases, "{\"amount\": 6}");
        UUID otherDeal = runs.start(deals, "{\"deal_value\": 11}");
        assertThat(runs.row(otherDeal)).isVisible();
        assertThat(page.locator("#inbox-list [data-run-id]").filter(new Locator.FilterOptions()
                .setHasText(purchases))).hasCount(0);
        assertThat(runs.row(otherPurchase)).hasCount(0);

        page.reload();
        InboxRuns.live(page);
        assertThat(page.getByLabel("Workflow")).hasValue(deals);
        assertThat(runs.row(deal)).isVisible();
        assertThat(runs.row(otherDeal)).isVisible();
        assertThat(runs.row(purchase)).hasCount(0);
        assertThat(runs.complaints()).isEmpty();
    }

    @Test
    void mineShowsWhatIMayDecideAndOverdueWhatIsPastItsTimeout(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        String quickName = runs.create(InboxRuns.formTimingOutAfter("PT1S"));
        UUID late = runs.start(quickName, "{\"amount\": 7}");
        UUID onTime = runs.start(runs.create(InboxRuns.fixture("valid/hitl-form")), "{\"amount\": 8}");
        runs.awaitOverdue(late);

        runs.open("/approvals");
        page.getByLabel("Overdue only").check();
        assertThat(page).hasURL(Pattern.compile("overdue=true"));
        assertThat(runs.row(late)).isVisible();
        assertThat(runs.row(late).locator(".sla")).containsText("overdue");
        assertThat(runs.row(onTime)).hasCount(0);

        try (BrowserContext nico = page.context().browser().newContext()) {
            Page other = nico.newPage();
            SignIn.asUser(other, runs.base(), "/approvals?workflow=" + quickName, "nico", "nico-pass-123");
            InboxRuns.live(other);
            assertThat(other.locator("#approval-inbox")).containsText("Nothing to decide");
            other.getByLabel("Show").selectOption("false");
            assertThat(other).hasURL(Pattern.compile("mine=false"));
            Locator detail = other.locator(".inbox-detail[data-run-id='" + late + "']");
            assertThat(detail).containsText("Only role:approver may decide this.");
            assertThat(detail.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Approve")))
                    .hasCount(0);
        }
        assertThat(runs.complaints()).isEmpty();
    }

    @Test
    void theKeyboardMovesTheSelectionAndDecidesWhileApprovalsArriveLive(Page page) {
        InboxRuns runs = new InboxRuns(page, port);
        String flow = runs.create(InboxRuns.fixture("valid/hitl-form"));
        UUID first = runs.start(flow, "{\"amount\": 1}");
        UUID second = runs.start(flow, "{\"amount\": 2}");
        UUID third = runs.start(flow, "{\"amount\": 3}");

        runs.open("/approvals?workflow=" + flow);
        assertThat(page.locator("#inbox-keys")).containsText("a approve");
        assertThat(runs.row(third)).hasAttribute("aria-selected", "true");
        page.keyboard().press("j");
        assertThat(runs.row(second)).hasAttribute("aria-selected", "true");
        assertThat(runs.row(second)).isFocused();
        assertThat(runs.detail(second)).isVisible();
        assertThat(runs.detail(third)).isHidden();
        page.keyboard().press("ArrowDown");
        assertThat(runs.row(first)).isFocused();
        page.keyboard().press("k");
        assertThat(runs.row(second)).isFocused();

        UUID fourth = runs.start(flow, "{\"amount\": 4}");
        assertThat(runs.row(fourth)).isVisible();
        assertThat(runs.row(second)).hasAttribute("aria-selected", "true");
        assertThat(runs.detail(second)).isVisible();

        page.keyboard().press("c");
        assertThat(runs.detail(second).getByLabel("Comment")).isFocused();
        page.keyboard().type("Within budget");
        runs.row(second).click();
        page.keyboard().press("a");
        assertThat(page.locator("#approval-history")).containsText("Within budget");
        assertThat(runs.row(second)).hasCount(0);
        assertThat(runs.row(first)).hasAttribute("aria-selected", "true");
        assertThat(runs.row(first)).isFocused();
        assertThat(page).hasURL(Pattern.compile("workflow=" + flow));

        page.keyboard().press("r");
        assertThat(page.locator("#approval-history tr").filter(new Locator.FilterOptions()
                .setHasText(first.toString()))).containsText("rejected");
        assertThat(runs.row(first)).hasCount(0);
        assertThat(runs.complaints()).isEmpty();
    }
}
