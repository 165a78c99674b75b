package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import io.tokenflow.TestWorkflows;
import tools.jackson.databind.json.JsonMapper;

/**
 * The looks every page shares: a favicon, a light and a dark theme (the system's by default, or chosen in the header
 * and remembered), and no page that logs an error or a warning on the console, in either theme.
 */
@BrowserTest
class LooksE2ETests {

    private static final Path SCREENSHOTS = Path.of("target/screenshots/themes");
    private static final String DARK_BG = "rgb(15, 19, 24)";
    private static final String LIGHT_BG = "rgb(245, 246, 248)";

    @LocalServerPort
    int port;

    @Test
    void theHeaderSwitchesTheThemeAndTheChoiceSurvivesAReload(Page page) {
        page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.LIGHT));
        SignIn.andOpen(page, base(), "/workflows");
        assertThat(page.getByLabel("Theme")).hasValue("system");
        assertThat(page.locator("body")).hasCSS("background-color", LIGHT_BG);

        page.getByLabel("Theme").selectOption("dark");
        assertThat(page.locator("html")).hasAttribute("data-theme", "dark");
        assertThat(page.locator("body")).hasCSS("background-color", DARK_BG);
        page.reload();
        assertThat(page.locator("html")).hasAttribute("data-theme", "dark");
        assertThat(page.getByLabel("Theme")).hasValue("dark");
        assertThat(page.locator("body")).hasCSS("background-color", DARK_BG);

        page.getByLabel("Theme").selectOption("system");
        assertThat(page.locator("body")).hasCSS("background-color", LIGHT_BG);
        page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
        assertThat(page.locator("body")).hasCSS("background-color", DARK_BG);
        page.getByLabel("Theme").selectOption("light");
        page.reload();
        assertThat(page.locator("html")).hasAttribute("data-theme", "light");
        assertThat(page.locator("body")).hasCSS("background-color", LIGHT_BG);
    }

    @Test
    void theDesignerCanvasAndTheRunGraphTakeANewThemesColoursWithoutAReload(Page page) {
        page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.LIGHT));
        page.setViewportSize(1440, 900);
        SignIn.asUser(page, base(), "/workflows", SignIn.ADMIN, SignIn.ADMIN_PASSWORD);
        page.getByLabel("Theme").selectOption("light");
        String workflow = TestWorkflows.unique("theme-switch");
        APIResponse created = SignIn.post(page, base(), SignIn.ADMIN, SignIn.ADMIN_PASSWORD, "/api/v1/workflows",
                TestWorkflows.fixture("valid/hitl-approval", workflow));
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        APIResponse started = SignIn.post(page, base(), SignIn.ADMIN, SignIn.ADMIN_PASSWORD, "/api/v1/runs",
                "{\"workflow\": \"" + workflow + "\", \"inputs\": {}}");
        assertThat(started.status()).as(started.text()).isEqualTo(201);
        String run = JsonMapper.builder().build().readTree(started.text()).get("id").asString();

        String designerNode = "() => window.tokenflowDesigner.canvas.cy.nodes()[0].style('background-color')";
        String runNode = "() => document.getElementById('run-graph')._cyreg.cy.nodes()[0].data('fill')";
        for (String[] view : List.of(new String[] {"/workflows/" + workflow + "/editor", designerNode},
                new String[] {"/runs/" + run, runNode})) {
            page.navigate(base() + view[0]);
            page.waitForFunction(view[1]);
            String light = (String) page.evaluate(view[1]);
            page.getByLabel("Theme").selectOption("dark");
            assertThat(page.locator("body")).hasCSS("background-color", DARK_BG);
            page.waitForFunction("light => (" + view[1] + ")() !== light", light);
            String switched = (String) page.evaluate(view[1]);
            // the colour a page drawn in the dark theme has from the start
            page.reload();
            page.waitForFunction(view[1]);
            assertThat(switched).as(view[0]).isEqualTo(page.evaluate(view[1]));
            page.getByLabel("Theme").selectOption("light");
            page.waitForFunction("light => (" + view[1] + ")() === light", light);
        }
    }

    @Test
    void everyListPageLoadsWithoutConsoleErrorsOrWarningsInBothThemesAndHasAFavicon(Page page) {
        List<String> problems = new ArrayList<>();
        page.onConsoleMessage(message -> {
            if ("error".equals(message.type()) || "warning".equals(message.type())) {
                problems.add(page.url() + ": " + message.type() + " " + message.text());
            }
        });
        page.onResponse(response -> {
            if (response.status() >= 400) {
                problems.add(response.url() + " answered " + response.status());
            }
        });
        page.setViewportSize(1440, 900);
        page.navigate(base() + "/login");
        // under its content hash (cached for a year), served before signing in
        assertThat(page.locator("link[rel=icon]")).hasAttribute("href",
                Pattern.compile("^/assets/favicon-[0-9a-f]{32}\\.svg$"));
        APIResponse linked = page.request().get(base() + page.locator("link[rel=icon]").getAttribute("href"));
        assertThat(linked.status()).isEqualTo(200);
        screenshot(page, "login-light");
        SignIn.asUser(page, base(), "/workflows", SignIn.ADMIN, SignIn.ADMIN_PASSWORD);
        String workflow = TestWorkflows.unique("looks");
        APIResponse created = SignIn.post(page, base(), SignIn.ADMIN, SignIn.ADMIN_PASSWORD, "/api/v1/workflows",
                TestWorkflows.fixture("valid/hitl-approval", workflow));
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        List<String> pages = List.of("/workflows", "/workflows/" + workflow, "/runs", "/dlq", "/quarantine",
                "/users", "/audit");
        for (String theme : List.of("light", "dark")) {
            page.navigate(base() + "/workflows");
            page.getByLabel("Theme").selectOption(theme);
            for (String path : pages) {
                page.navigate(base() + path);
                assertThat(page.locator("html")).hasAttribute("data-theme", theme);
                assertThat(page.locator("h1")).isVisible();
                screenshot(page, path.substring(1).replace('/', '-') + "-" + theme);
            }
        }
        APIResponse icon = page.request().get(base() + "/favicon.ico");
        assertThat(icon.status()).isEqualTo(200);
        assertThat(icon.headers().get("content-type")).startsWith("image/svg+xml");
        assertThat(problems).isEmpty();
    }

    private static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")).setFullPage(true));
    }

    private String base() {
        return "http://localhost:" + port;
    }
}
