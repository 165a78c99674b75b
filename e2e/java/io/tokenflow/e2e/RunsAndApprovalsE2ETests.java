package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The runs and approvals pages list what is in their tables. Runs cannot be started from a page yet, so the test
 * stores a run and its approval the way the engine does, then looks at them in the browser.
 */
@BrowserTest
class RunsAndApprovalsE2ETests {

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Test
    void listsRunsAndApprovalsNewestFirstAndSaysSoWhenThereAreNone(Page page) {
        SignIn.andOpen(page, "http://localhost:" + port, "/runs");
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Runs").setLevel(1))).isVisible();
        if (count("runs") == 0) {
            assertThat(page.getByText("No runs yet. Runs appear here once started through POST /api/v1/runs."))
                    .isVisible();
        }
        String workflow = "approval-flow-" + UUID.randomUUID().toString().substring(0, 8);
        Locator form = page.locator("#new-workflow");
        mainNavigation(page, "Workflows");
        form.getByLabel("Name").fill(workflow);
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create workflow")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(workflow).setLevel(1))).isVisible();
        UUID workflowId = UUID.fromString(page.url().substring(page.url().lastIndexOf('/') + 1));
        // other tests in this JVM start real runs; dating these a day ahead keeps them the newest two
        OffsetDateTime now = OffsetDateTime.ofInstant(Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS),
                ZoneOffset.UTC);
        UUID older = storeRunWaitingForApproval(workflowId, now.minusHours(1));
        UUID run = storeRunWaitingForApproval(workflowId, now);

        mainNavigation(page, "Runs");
        Locator rows = page.locator("#run-table tbody tr");
        assertThat(rows.first()).containsText(run.toString());
        assertThat(rows.nth(1)).containsText(older.toString());
        Locator runRow = rows.filter(new Locator.FilterOptions().setHasText(run.toString()));
        assertThat(runRow).containsText(workflow);
        assertThat(runRow).containsText("running");
        assertThat(runRow).containsText("not ended");

        mainNavigation(page, "Approvals");
        Locator approvals = page.locator("#inbox-list [data-run-id]");
        assertThat(approvals.first()).hasAttribute("data-run-id", run.toString());
        assertThat(approvals.nth(1)).hasAttribute("data-run-id", older.toString());
        Locator approval = approvals.first();
        assertThat(approval).containsText("start");
        assertThat(approval).containsText("Approve the welcome mail");
        assertThat(approval).containsText("role:approver");
        assertThat(approval.locator(".sla")).containsText(" left");
    }

    private static void mainNavigation(Page page, String name) {
        page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"))
                .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName(name)).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(name).setLevel(1))).isVisible();
    }

    private UUID storeRunWaitingForApproval(UUID workflowId, OffsetDateTime now) {
        UUID run = UUID.randomUUID();
        jdbc.sql("insert into runs (id, workflow_id, workflow_version, status, created_at, started_at) "
                        + "values (?, ?, 1, 'RUNNING', ?, ?)")
                .params(run, workflowId, now, now).update();
        jdbc.sql("insert into approvals (id, run_id, node_id, token_id, status, approvers, title, created_at, "
                        + "timeout_at) values (?, ?, 'start', 't-1', 'PENDING', '[\"role:approver\"]', "
                        + "'Approve the welcome mail', ?, ?)")
                .params(UUID.randomUUID(), run, now, now.plusDays(2)).update();
        return run;
    }

    private long count(String table) {
        return jdbc.sql("select count(*) from " + table).query(Long.class).single();
    }
}
