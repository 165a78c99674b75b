package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.ConsoleMessage;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.RequestOptions;

import io.tokenflow.TestWorkflows;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workflows with human nodes created and started through the REST API (as the signed-in approver), their pending
 * approvals waited for, and the inbox's rows and details found by run, for the inbox's browser tests.
 */
final class InboxRuns {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final Page page;
    private final String base;
    private final List<String> console = new ArrayList<>();

    InboxRuns(Page page, int port) {
        this.page = page;
        this.base = "http://localhost:" + port;
        page.onConsoleMessage(this::heard);
    }

    String base() {
        return base;
    }

    /** Signs in on {@code path} of the inbox and waits until it is live (its scripts ran, its socket is open). */
    void open(String path) {
        SignIn.andOpen(page, base, path);
        live(page);
    }

    static void live(Page inbox) {
        assertThat(inbox.locator("#live-status")).hasText("Live");
    }

    /** A fixture (e.g. {@code valid/hitl-form}) as JSON to change before {@link #create}. */
    static ObjectNode fixture(String name) {
        return (ObjectNode) JSON.readTree(TestWorkflows.fixture(name, TestWorkflows.unique("inbox")));
    }

    /** {@code valid/hitl-form} whose approval times out after {@code timeout} (ISO-8601). */
    static ObjectNode formTimingOutAfter(String timeout) {
        ObjectNode workflow = fixture("valid/hitl-form");
        ((ObjectNode) workflow.at("/nodes/1/human")).put("timeout", timeout);
        return workflow;
    }

    /** Creates the workflow; returns its name. */
    String create(ObjectNode workflow) {
        APIResponse created = post("/api/v1/workflows", workflow.toString());
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        return workflow.get("name").asString();
    }

    /** Starts a run and waits for its approval to be pending; returns the run. */
    UUID start(String workflow, String inputs) {
        ObjectNode start = JSON.createObjectNode().put("workflow", workflow);
        start.set("inputs", JSON.readTree(inputs));
        APIResponse started = post("/api/v1/runs", start.toString());
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        UUID run = UUID.fromString(JSON.readTree(started.text()).get("id").asString());
        await().atMost(Duration.ofSeconds(30)).until(() -> approval(run) != null);
        return run;
    }

    /** The run's pending approval as the REST API answers it (looked for on every page), or null. */
    JsonNode approval(UUID run) {
        for (int page = 0; ; page++) {
            JsonNode approvals = JSON.readTree(get("/api/v1/approvals?status=pending&size=500&page=" + page).text());
            for (JsonNode approval : approvals) {
                if (approval.get("runId").asString().equals(run.toString())) {
                    return approval;
                }
            }
            if (approvals.size() < 500) {
                return null;
            }
        }
    }

    /** Waits until the run's approval is past its timeout. */
    void awaitOverdue(UUID run) {
        Instant timeout = Instant.parse(approval(run).get("timeoutAt").asString());
        await().atMost(Duration.ofSeconds(30)).until(() -> Instant.now().isAfter(timeout));
    }

    APIResponse get(String path) {
        return page.request().get(base + path, RequestOptions.create().setHeader("Authorization", basic()));
    }

    APIResponse post(String path, String body) {
        return page.request().post(base + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", basic()));
    }

    /** A JSON Patch on the workflow's version {@code version}, which makes the next one. */
    APIResponse patchWorkflow(String workflow, int version, String patch) {
        return page.request().patch(base + "/api/v1/workflows/" + workflow, RequestOptions.create().setData(patch)
                .setHeader("Content-Type", "application/json-patch+json").setHeader("If-Match", "\"" + version + "\"")
                .setHeader("Authorization", basic()));
    }

    Locator row(UUID run) {
        return page.locator("#inbox-list [data-run-id='" + run + "']");
    }

    Locator detail(UUID run) {
        return page.locator(".inbox-detail[data-run-id='" + run + "']");
    }

    /** The console's errors and warnings since the page opened. */
    List<String> complaints() {
        return List.copyOf(console);
    }

    private void heard(ConsoleMessage message) {
        // Chromium asks for /favicon.ico by itself (the app has none): not the page's doing
        boolean favicon = message.location().contains("/favicon.ico");
        if ((message.type().equals("error") || message.type().equals("warning")) && !favicon) {
            console.add(message.type() + ": " + message.text() + " at " + message.location());
        }
    }

    private static String basic() {
        return "Basic " + Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }
}
