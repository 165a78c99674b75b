package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import io.tokenflow.TestWorkflows;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Human approvals as people live them: a run reaches a human node and waits, visibly; an approver decides in the inbox
 * in a second browser while the first watches the run move on; a reject takes the rejection path; someone who is not
 * an approver sees nothing to decide and is refused by the API; an approval nobody decided in time escalates to the
 * admins.
 */
@BrowserTest
@TestPropertySource(properties = {"tokenflow.approvals.timeout-check-interval=1s",
        "tokenflow.security.users[0].username=" + SignIn.USERNAME,
        "tokenflow.security.users[0].password={noop}" + SignIn.PASSWORD,
        "tokenflow.security.users[0].roles=designer,operator,approver",
        "tokenflow.security.users[1].username=nico", "tokenflow.security.users[1].password={noop}nico-pass-123",
        "tokenflow.security.users[1].roles=designer,operator",
        "tokenflow.security.users[2].username=root", "tokenflow.security.users[2].password={noop}root-pass-123",
        "tokenflow.security.users[2].roles=admin"})
class ApprovalsE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void anApproverDecidesInTheInboxWhileTheRunPageWatches(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        UUID run = startRun(page, "valid/hitl-approval", "{\"deal_value\": 250000}");
        page.navigate(base() + "/runs/" + run);
        Locator approval = node(page, "manager_approval");
        assertThat(approval).hasAttribute("data-status", "running");
        assertThat(approval).hasAttribute("data-approval", "pending");
        assertThat(page.locator("#run-approvals")).containsText("Approve enterprise deal");

        try (BrowserContext nico = page.context().browser().newContext()) {
            Page other = nico.newPage();
            SignIn.asUser(other, base(), "/approvals", "nico", "nico-pass-123");
            assertThat(other.locator("#approval-inbox")).containsText("Nothing to decide");
            APIResponse refused = decide(other, "nico", "nico-pass-123", approvalId(page), "approve");
            assertThat(refused.status()).isEqualTo(403);
        }
        try (BrowserContext approver = page.context().browser().newContext()) {
            Page inbox = approver.newPage();
            SignIn.andOpen(inbox, base(), "/approvals");
            inbox.locator("#inbox-list [data-run-id='" + run + "']").click();
            Locator card = inbox.locator(".inbox-detail[data-run-id='" + run + "']");
            assertThat(card).containsText("Approve enterprise deal");
            assertThat(card.locator("[data-field='deal_value']")).containsText("250,000");
            card.getByLabel("Comment").fill("Margin is fine");
            card.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Approve")).click();
            assertThat(inbox.getByRole(AriaRole.STATUS).filter(new Locator.FilterOptions().setHasText("Approved")))
                    .isVisible();
            assertThat(inbox.locator("#approval-history")).containsText("Margin is fine");
        }

        assertThat(page.locator("#run-summary .status")).hasText("completed");
        assertThat(node(page, "setup_enterprise_account")).hasAttribute("data-status", "completed");
        assertThat(node(page, "notify_rejection")).hasAttribute("data-status", "not-reached");
        assertThat(approval).hasAttribute("data-status", "completed");
    }

    @Test
    void aRejectTakesTheRejectionPath(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        UUID run = startRun(page, "valid/hitl-approval", "{\"deal_value\": 12}");
        page.navigate(base() + "/approvals");
        page.locator("#inbox-list [data-run-id='" + run + "']").click();
        Locator card = page.locator(".inbox-detail[data-run-id='" + run + "']");
        card.getByLabel("Comment").fill("Too small for enterprise");
        card.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Reject")).click();
        assertThat(page.locator("#approval-history")).containsText("Too small for enterprise");

        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-summary .status")).hasText("completed");
        assertThat(node(page, "notify_rejection")).hasAttribute("data-status", "completed");
        assertThat(node(page, "setup_enterprise_account")).hasAttribute("data-status", "not-reached");
    }

    @Test
    void anApprovalNobodyDecidedInTimeEscalatesToTheAdmins(Page page) {
        SignIn.andOpen(page, base(), "/runs");
        UUID run = startRun(page, "engine/hitl-quick", "{\"deal_value\": 99}");
        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-approvals")).containsText("escalated");
        assertThat(page.locator("#run-approvals")).containsText("role:admin");

        page.navigate(base() + "/approvals");
        assertThat(page.locator("#inbox-list [data-run-id='" + run + "']")).hasCount(0);
        try (BrowserContext admin = page.context().browser().newContext()) {
            Page inbox = admin.newPage();
            SignIn.asUser(inbox, base(), "/approvals", "root", "root-pass-123");
            Locator row = inbox.locator("#inbox-list [data-run-id='" + run + "']");
            assertThat(row).containsText("escalated");
            row.click();
            Locator card = inbox.locator(".inbox-detail[data-run-id='" + run + "']");
            card.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Approve")).click();
            assertThat(inbox.locator("#approval-history")).containsText("root");
        }
        page.navigate(base() + "/runs/" + run);
        assertThat(page.locator("#run-summary .status")).hasText("completed");
    }

    private Locator node(Page page, String id) {
        return page.locator("#run-nodes li[data-node='" + id + "']");
    }

    private String approvalId(Page page) {
        return page.locator("#run-approvals li[data-approval-id]").first().getAttribute("data-approval-id");
    }

    private UUID startRun(Page page, String fixture, String inputs) {
        String name = TestWorkflows.unique("approvals-e2e");
        APIResponse created = post(page, SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/workflows",
                TestWorkflows.fixture(fixture, name));
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        ObjectNode start = JSON.createObjectNode().put("workflow", name);
        start.set("inputs", JSON.readTree(inputs));
        APIResponse started = post(page, SignIn.USERNAME, SignIn.PASSWORD, "/api/v1/runs", start.toString());
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        return UUID.fromString(JSON.readTree(started.text()).get("id").asString());
    }

    private APIResponse decide(Page page, String user, String password, String approval, String decision) {
        return post(page, user, password, "/api/v1/approvals/" + approval + "/decide",
                "{\"decision\": \"" + decision + "\"}");
    }

    private APIResponse post(Page page, String user, String password, String path, String body) {
        return SignIn.post(page, base(), user, password, path, body);
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
