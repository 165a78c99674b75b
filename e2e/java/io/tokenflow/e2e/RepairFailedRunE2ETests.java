package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.RequestOptions;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.json.JsonMapper;

/**
 * Repairing a failed run from its page in a real browser. Retry: an HTTP node's service refuses the first call (a
 * permanent 4xx, so the run fails), the operator presses Retry, the service accepts the second call and the run
 * completes under the same id. Compensate: a booking went through before the charge failed; the operator presses
 * Compensate and the booking's compensator (a refund call) runs.
 */
@BrowserTest
class RepairFailedRunE2ETests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void anOperatorRetriesAFailedRunFromItsPageAndItCompletes(Page page) throws IOException {
        AtomicInteger calls = new AtomicInteger();
        HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/charge", exchange -> {
            boolean first = calls.incrementAndGet() == 1;
            byte[] body = (first ? "{\"error\": \"card declined\"}" : "{\"charged\": true}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(first ? 402 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
        try {
            SignIn.andOpen(page, base(), "/runs");
            String workflow = "retry-page-" + UUID.randomUUID().toString().substring(0, 8);
            APIResponse created = api(page, "/api/v1/workflows", """
                    {"name": "%s", "nodes": [
                      {"id": "charge", "type": "http", "config": {"method": "POST",
                       "url": "http://127.0.0.1:%d/charge"}},
                      {"id": "receipt", "type": "function", "config": {"function": "echo"}}],
                     "edges": [{"from": "charge", "to": "receipt"}]}"""
                    .formatted(workflow, service.getAddress().getPort()));
            assertThat(created.status()).as(created.text()).isEqualTo(201);
            APIResponse started = api(page, "/api/v1/runs", "{\"workflow\": \"" + workflow + "\"}");
            assertThat(started.status()).as(started.text()).isEqualTo(201);
            String run = JSON.readTree(started.text()).get("id").asString();
            await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(JSON.readTree(page.request()
                    .get(base() + "/api/v1/runs/" + run, RequestOptions.create().setHeader("Authorization",
                            "Basic " + credentials())).text()).get("status").asString()));

            page.navigate(base() + "/runs/" + run);
            assertThat(page.locator("#run-summary")).hasAttribute("data-status", "FAILED");
            Locator retry = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions()
                    .setName("Retry from the failed node"));
            assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Cancel run"))).isHidden();
            assertThat(retry).isVisible();
            retry.click();

            assertThat(page.locator(".notice")).containsText("Retrying the run: charge");
            page.navigate(base() + "/runs/" + run);
            assertThat(page.locator("#run-summary")).hasAttribute("data-status", "COMPLETED");
            assertThat(retry).isHidden();
            assertThat(page.locator("#run-nodes li[data-node='charge']")).containsText("completed");
            assertThat(calls.get()).isEqualTo(2);
        } finally {
            service.stop(0);
        }
    }

    @Test
    void anOperatorCompensatesAFailedRunFromItsPage(Page page) throws IOException {
        AtomicInteger refunds = new AtomicInteger();
        HttpServer service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/refund")) {
                refunds.incrementAndGet();
            }
            int status = path.equals("/charge") ? 402 : 200;
            byte[] body = "{\"ok\": true}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
        try {
            SignIn.andOpen(page, base(), "/runs");
            String url = "http://127.0.0.1:" + service.getAddress().getPort();
            String workflow = "saga-page-" + UUID.randomUUID().toString().substring(0, 8);
            APIResponse created = api(page, "/api/v1/workflows", """
                    {"name": "%s", "nodes": [
                      {"id": "book", "type": "http", "config": {"method": "POST", "url": "%s/book"},
                       "compensate": {"type": "http", "config": {"method": "POST", "url": "%s/refund"}}},
                      {"id": "charge", "type": "http", "config": {"method": "POST", "url": "%s/charge"}}],
                     "edges": [{"from": "book", "to": "charge"}]}""".formatted(workflow, url, url, url));
            assertThat(created.status()).as(created.text()).isEqualTo(201);
            APIResponse started = api(page, "/api/v1/runs", "{\"workflow\": \"" + workflow + "\"}");
            String run = JSON.readTree(started.text()).get("id").asString();
            await().atMost(Duration.ofSeconds(30)).until(() -> "FAILED".equals(JSON.readTree(page.request()
                    .get(base() + "/api/v1/runs/" + run, RequestOptions.create().setHeader("Authorization",
                            "Basic " + credentials())).text()).get("status").asString()));

            page.navigate(base() + "/runs/" + run);
            Locator compensate = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions()
                    .setName("Compensate (undo completed steps)"));
            assertThat(compensate).isVisible();
            // compensating undoes completed steps: the page asks first
            page.onceDialog(dialog -> {
                assertThat(dialog.message()).contains("Compensate this run?");
                dialog.accept();
            });
            compensate.click();

            assertThat(page.locator(".notice")).containsText("Compensating book#0");
            await().atMost(Duration.ofSeconds(15)).until(() -> refunds.get() == 1);
            page.navigate(base() + "/runs/" + run);
            assertThat(page.locator("#run-summary")).hasAttribute("data-status", "FAILED");
            assertThat(page.getByText("compensation completed")).isVisible();
        } finally {
            service.stop(0);
        }
    }

    private APIResponse api(Page page, String path, String body) {
        return page.request().post(base() + path, RequestOptions.create().setData(body)
                .setHeader("Content-Type", "application/json").setHeader("Authorization", "Basic " + credentials()));
    }

    private static String credentials() {
        return Base64.getEncoder().encodeToString((SignIn.USERNAME + ":" + SignIn.PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
