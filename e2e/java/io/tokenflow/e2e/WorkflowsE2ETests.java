package io.tokenflow.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.SameSiteAttribute;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A designer's day with the workflows pages: create, import, fix a broken document, inspect, tag, export, search. */
@BrowserTest
class WorkflowsE2ETests {

    private static final Path VALID = Path.of("src/test/resources/workflows/valid");
    private static final Path INVALID = Path.of("src/test/resources/workflows/invalid");
    /** README screenshots are refreshed with -Dtokenflow.screenshots=docs/screenshots; otherwise they go to target/. */
    private static final Path SCREENSHOTS = Path.of(System.getProperty("tokenflow.screenshots", "target/screenshots"));

    @LocalServerPort
    int port;

    @Test
    void signsInAndCreatesWorkflowFromTheForm(Page page) {
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String name = unique("welcome-mail");
        Locator form = page.locator("#new-workflow");
        form.getByLabel("Name").fill(name);
        form.getByLabel("Description").fill("Sends the welcome mail");
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create workflow")).click();

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(name).setLevel(1))).isVisible();
        assertThat(page.locator("#node-start")).containsText("function");
        assertThat(page.locator("#dsl > pre")).containsText("\"noop\"");
    }

    /**
     * The pages work under the Content-Security-Policy (no inline script or style, no eval: the browser reports
     * each refusal on the console), and the session cookie goes with same-site requests only (SameSite=Lax).
     */
    @Test
    void pagesRunUnderTheContentSecurityPolicyWithALaxSessionCookie(Page page) {
        List<String> refused = new ArrayList<>();
        page.onConsoleMessage(message -> {
            if (message.text().contains("Content Security Policy")) {
                refused.add(message.text());
            }
        });
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String name = unique("csp");
        create(page, name);
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(name).setLevel(1))).isVisible();
        page.navigate(baseUrl() + "/workflows/" + name + "/editor");
        assertThat(page.locator("#save-state")).isVisible();
        page.navigate(baseUrl() + "/runs");
        page.navigate(baseUrl() + "/approvals");

        assertThat(refused).as("refused by the Content-Security-Policy").isEmpty();
        assertThat(page.context().cookies()).filteredOn(cookie -> cookie.name.equals("JSESSIONID")).singleElement()
                .satisfies(cookie -> assertThat(cookie.sameSite).isEqualTo(SameSiteAttribute.LAX));
    }

    @Test
    void showsTakenNameNextToTheNameField(Page page) {
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String name = unique("taken");
        create(page, name);
        page.navigate(baseUrl() + "/workflows");
        create(page, name);

        assertThat(page.locator("#create-name-error")).containsText("'" + name + "' is already taken");
        assertThat(page.locator("#new-workflow").getByLabel("Name")).hasValue(name);
    }

    @Test
    void importsFileThenTagsAndExportsIt(Page page) throws IOException {
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String name = unique("fan-out-fan-in");
        importFile(page, VALID.resolve("fan-out-fan-in.json"), name);

        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(name).setLevel(1))).isVisible();
        assertThat(page.locator("#nodes tbody tr[id^=node-]:not(.warning-row)")).hasCount(4);
        assertThat(page.locator("#node-D")).containsText("join");
        assertThat(page.locator("#node-D")).containsText("✓");
        assertThat(page.locator("#version-1")).containsText("Created");

        Locator tags = page.locator("#tags");
        tags.getByLabel("Tag").fill("main");
        tags.getByLabel("Version").selectOption("1");
        tags.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Set tag")).click();
        assertThat(page.locator("#tags li")).containsText("main → version 1");

        Download download = page.waitForDownload(() -> page.getByRole(AriaRole.LINK,
                new Page.GetByRoleOptions().setName("Export version 1 (JSON)")).click());
        JsonNode exported = JsonMapper.builder().build().readTree(download.path().toFile());
        assertThat(exported.path("name").asString()).isEqualTo(name);
        assertThat(exported.path("nodes")).hasSize(4);
    }

    @Test
    void showsProblemsOfPastedDocumentNextToTheNodeAtFault(Page page) throws IOException {
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String broken = Files.readString(INVALID.resolve("edge-to-unknown-node.json"))
                .replace("edge-to-unknown-node", unique("broken"));
        page.getByLabel("Workflow JSON").fill(broken);
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Import JSON")).click();

        Locator nodeB = page.locator("#problems-node-B");
        assertThat(nodeB.getByRole(AriaRole.HEADING)).hasText("Node B");
        assertThat(nodeB).containsText("no node 'nowhere'");
        assertThat(nodeB).containsText("/edges/1/to");
        assertThat(page.getByLabel("Workflow JSON")).hasValue(broken);
    }

    @Test
    void searchesAsYouTypeAndShowsTheWorkflowsAndADetailPage(Page page) throws IOException {
        SignIn.andOpen(page, baseUrl(), "/workflows");
        String suffix = UUID.randomUUID().toString().substring(0, 4);
        for (String fixture : new String[] {"lead-scoring", "hitl-approval", "payment-retry", "data-enrichment"}) {
            page.navigate(baseUrl() + "/workflows");
            importFile(page, VALID.resolve(fixture + ".json"), fixture + "-" + suffix);
        }
        page.getByRole(AriaRole.NAVIGATION, new Page.GetByRoleOptions().setName("Main"))
                .getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Workflows")).click();
        // typing before the page's scripts ran would only fill the box: wait for the list page to finish loading
        page.waitForURL(Pattern.compile("/workflows$"));
        page.setViewportSize(1280, 900);
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("workflows.png")));

        page.getByLabel("Search workflows").pressSequentially("payment-retry-" + suffix);
        assertThat(page.locator("#workflow-table tbody tr")).hasCount(1);
        assertThat(page).hasURL(Pattern.compile("/workflows\\?q=payment-retry-" + suffix + "$"));
        page.locator("#workflow-table").getByRole(AriaRole.LINK).click();

        assertThat(page.locator("#node-call_payment_api")).containsText("loop");
        page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve("workflow-detail.png")).setFullPage(true));
    }

    @Test
    void showsTheErrorPageInTheLayoutForUnknownWorkflowsAndPages(Page page) {
        SignIn.andOpen(page, baseUrl(), "/workflows/no-such-workflow");
        Locator problem = page.locator("#problem");
        assertThat(problem.getByRole(AriaRole.HEADING)).hasText("Not found");
        assertThat(problem).containsText("Expected a workflow with id or name 'no-such-workflow', but there is none");

        page.navigate(baseUrl() + "/no-such-page");
        assertThat(problem).containsText("Error 404");
        assertThat(problem).containsText("Expected a page at /no-such-page, but there is none");
        page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Back to workflows")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Workflows").setLevel(1)))
                .isVisible();
    }

    private static void create(Page page, String name) {
        Locator form = page.locator("#new-workflow");
        form.getByLabel("Name").fill(name);
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Create workflow")).click();
    }

    private static void importFile(Page page, Path file, String saveAs) {
        Locator form = page.locator("#import");
        form.getByLabel("JSON file").setInputFiles(file);
        form.getByLabel("Save as").fill(saveAs);
        form.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Import file")).click();
        assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(saveAs).setLevel(1))).isVisible();
    }

    private String baseUrl() {
        return "http://localhost:" + port;
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
