package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Swagger UI in a real browser: an anonymous visit leads to the sign-in form and back, the page shows every
 * operation of the document (the runs endpoints among them) with its scope, and runs under the
 * Content-Security-Policy with nothing on the console (a script or style it refused would be reported there).
 */
@BrowserTest
class SwaggerUiE2ETests {

    @LocalServerPort
    int port;

    @Test
    void aSignedInPersonSeesEveryOperationInSwaggerUiUnderTheContentSecurityPolicy(Page page) {
        List<String> console = new ArrayList<>();
        page.onConsoleMessage(message -> {
            // the browser asks for /favicon.ico on its own (on the sign-in page), and Tokenflow has none
            boolean favicon = message.location().contains("/favicon.ico");
            if (!favicon && (message.type().equals("error") || message.type().equals("warning"))) {
                console.add(message.type() + ": " + message.text() + " at " + message.location());
            }
        });
        page.onPageError(error -> console.add("page error: " + error));

        page.navigate(base() + "/swagger-ui.html");
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Sign in to Tokenflow")))
                .isVisible();
        page.getByLabel("Username").fill(SignIn.USERNAME);
        page.getByLabel("Password").fill(SignIn.PASSWORD);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();

        // springdoc builds the document on its first request, which takes seconds on a busy machine
        assertThat(page.locator(".swagger-ui .info .title")).containsText("Tokenflow API",
                new LocatorAssertions.ContainsTextOptions().setTimeout(30_000));
        assertThat(page.locator(".opblock-summary-path[data-path='/api/v1/runs']").first()).isVisible();
        assertThat(page.locator(".opblock-summary-path[data-path='/api/v1/runs/{id}/cancel']")).isVisible();
        APIResponse document = page.request().get(base() + "/v3/api-docs");
        assertThat(document.status()).isEqualTo(200);
        assertThat(page.locator(".opblock")).hasCount(operations(document.text()));

        page.locator(".opblock-post:has([data-path='/api/v1/runs']) .opblock-summary").first().click();
        assertThat(page.locator(".opblock-post.is-open")).containsText("runs:write");
        assertThat(console).as("console errors and warnings").isEmpty();
    }

    private static int operations(String document) {
        int operations = 0;
        for (JsonNode path : JsonMapper.builder().build().readTree(document).path("paths")) {
            operations += path.size();
        }
        return operations;
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
