package io.tokenflow.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.AriaRole;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.tokenflow.TokenflowApplication;
import io.tokenflow.designer.CreateWorkflow;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures how long the designer takes to show a 200-node workflow (208 edges) in Chromium: the whole application in
 * one JVM (embedded Redis and PostgreSQL), one signed-in browser page opening the workflow's designer N times, each
 * time from navigation start to the canvas's first drawn frame after the first fit (the page's
 * {@code tokenflow:canvas-drawn} performance mark), each open from the workflow's page by its "Open in designer"
 * link: as imported (no stored positions, so the designer lays the graph out with dagre as it opens), then after the
 * layout was saved; and once more with the designer reloaded over itself. It prints the median and p95; it asserts
 * nothing (the target is under 500 ms).
 *
 * <p>Run: {@code ./mvnw -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * -Dmdep.includeScope=test && java -cp target/classes:target/test-classes:$(cat target/cp.txt)
 * io.tokenflow.benchmark.DesignerBenchmark} (options: {@code -Dbench.opens=10 -Dbench.profile=true
 * -Dbench.trace=true}; Chromium from /usr/bin/chromium when there is one, else Playwright's own).
 */
public final class DesignerBenchmark {

    private static final int OPENS = Integer.getInteger("bench.opens", 10);
    private static final Path SYSTEM_CHROMIUM = Path.of("/usr/bin/chromium");
    private static final String DRAWN = "() => performance.getEntriesByName('tokenflow:canvas-drawn')[0].startTime";
    private static final String LOADED = "() => performance.getEntriesByType('navigation')[0]"
            + ".domContentLoadedEventStart";

    /** Where the time of an open goes: the navigation's steps, then the editor's marks. */
    private static final String STEPS = "() => { const n = performance.getEntriesByType('navigation')[0];"
            + " const steps = {request: n.requestStart, response: n.responseStart, html: n.responseEnd,"
            + " interactive: n.domInteractive};"
            + " performance.getEntriesByType('mark').filter(m => m.name.startsWith('tokenflow:'))"
            + ".forEach(m => steps[m.name.substring(10)] ??= m.startTime); return steps; }";

    private final Page page;
    private final String base;

    private DesignerBenchmark(Page page, String base) {
        this.page = page;
        this.base = base;
    }

    public static void main(String[] args) throws Exception {
        List<String> settings = new ArrayList<>(List.of("--server.port=0", "--tokenflow.embedded.ephemeral=true",
                "--logging.level.root=WARN", "--spring.main.banner-mode=off",
                "--tokenflow.security.users[0].username=bench", "--tokenflow.security.users[0].password={noop}bench-pass",
                "--tokenflow.security.users[0].roles=designer"));
        settings.addAll(List.of(args));
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TokenflowApplication.class)
                .run(settings.toArray(String[]::new));
             Playwright playwright = Playwright.create(new Playwright.CreateOptions().setEnv(skipDownload()));
             Browser browser = playwright.chromium().launch(launchOptions())) {
            Page page = browser.newPage(new Browser.NewPageOptions().setViewportSize(1440, 900));
            DesignerBenchmark bench = new DesignerBenchmark(page, "http://localhost:"
                    + app.getEnvironment().getProperty("local.server.port"));
            String workflow = app.getBean(CreateWorkflow.class).create(lanes(), "bench").id().toString();
            System.out.printf("Tokenflow designer benchmark: %d cores, Java %s, Chromium %s, 200 nodes / 208 edges%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), browser.version());
            bench.signIn();
            bench.measure(workflow, "no stored positions (laid out on open), from the workflow's page", true);
            if (Boolean.getBoolean("bench.profile")) {
                bench.profile(workflow, "no stored positions");
            }
            bench.saveLayout(workflow);
            bench.measure(workflow, "positions stored, from the workflow's page", true);
            bench.measure(workflow, "positions stored, reloaded in the designer", false);
            if (Boolean.getBoolean("bench.profile")) {
                bench.profile(workflow, "positions stored");
            }
            if (Boolean.getBoolean("bench.trace")) {
                bench.trace(browser, workflow);
            }
        }
        System.exit(0);
    }

    private void signIn() {
        page.navigate(base + "/login");
        page.getByLabel("Username").fill("bench");
        page.getByLabel("Password").fill("bench-pass");
        page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Sign in")).click();
        page.waitForURL(url -> !url.contains("/login"));
    }

    /**
     * Opens the designer twice to warm up, then {@link #OPENS} times, and prints the figures. Each open either starts
     * on the workflow's page and follows its "Open in designer" link, as a designer does, or reloads the designer over
     * itself (the page it leaves is then a 200-node canvas to tear down, which the timings include).
     */
    private void measure(String workflow, String what, boolean fromWorkflowPage) {
        List<Double> drawn = new ArrayList<>();
        List<Double> loaded = new ArrayList<>();
        List<Double> script = new ArrayList<>();
        Map<String, List<Double>> steps = new java.util.LinkedHashMap<>();
        for (int i = -2; i < OPENS; i++) {
            if (fromWorkflowPage) {
                page.navigate(base + "/workflows/" + workflow);
                page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Open in designer")).click();
            } else {
                page.navigate(base + "/workflows/" + workflow + "/editor");
            }
            page.waitForSelector("#canvas[data-drawn]");
            if (i >= 0) {
                drawn.add(((Number) page.evaluate(DRAWN)).doubleValue());
                loaded.add(((Number) page.evaluate(LOADED)).doubleValue());
                script.add(((Number) page.evaluate("() => window.tokenflowDesigner.timings.firstRenderMs"))
                        .doubleValue());
                @SuppressWarnings("unchecked")
                Map<String, Object> marks = (Map<String, Object>) page.evaluate(STEPS);
                marks.forEach((step, at) -> steps.computeIfAbsent(step, k -> new ArrayList<>())
                        .add(((Number) at).doubleValue()));
            }
        }
        System.out.printf("Open the designer, %s, navigation start → canvas drawn: median %.0f ms, p95 %.0f ms;"
                        + " of which until DOMContentLoaded: median %.0f ms, p95 %.0f ms; the editor's script until the"
                        + " first render and fit: median %.0f ms, p95 %.0f ms (n=%d)%n", what, percentile(drawn, 50),
                percentile(drawn, 95), percentile(loaded, 50), percentile(loaded, 95), percentile(script, 50),
                percentile(script, 95), drawn.size());
        System.out.println("  each open, ms: " + drawn.stream().map(ms -> String.format("%.0f", ms)).toList());
        StringBuilder line = new StringBuilder("  steps, median ms after navigation start:");
        steps.forEach((step, at) -> line.append(String.format(" %s %.0f;", step, percentile(at, 50))));
        System.out.println(line);
    }

    /**
     * With {@code -Dbench.profile=true}: one more open under V8's sampling profiler (Chrome DevTools Protocol), and the
     * functions that took the most time of their own, with the time the page spent in each kind of work; once laid out
     * on open and once with positions stored.
     */
    private void profile(String workflow, String what) {
        CDPSession cdp = page.context().newCDPSession(page);
        cdp.send("Profiler.enable");
        JsonObject interval = new JsonObject();
        interval.addProperty("interval", 100);
        cdp.send("Profiler.setSamplingInterval", interval);
        cdp.send("Profiler.start");
        page.navigate(base + "/workflows/" + workflow + "/editor");
        page.waitForSelector("#canvas[data-drawn]");
        JsonObject profile = cdp.send("Profiler.stop").getAsJsonObject("profile");
        Map<Integer, JsonObject> nodes = new HashMap<>();
        profile.getAsJsonArray("nodes").forEach(node -> nodes.put(node.getAsJsonObject().get("id").getAsInt(),
                node.getAsJsonObject()));
        Map<String, Double> self = new HashMap<>();
        JsonArray samples = profile.getAsJsonArray("samples");
        JsonArray deltas = profile.getAsJsonArray("timeDeltas");
        for (int i = 0; i < samples.size(); i++) {
            String name = frameName(nodes.get(samples.get(i).getAsInt()));
            self.merge(name, deltas.get(i).getAsDouble() / 1000.0, Double::sum);
        }
        System.out.println("Profile of one open (" + what + "), self time:");
        self.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(25)
                .forEach(entry -> System.out.printf("  %7.1f ms  %s%n", entry.getValue(), entry.getKey()));
        // total time: each sample counts once for every distinct function on its stack
        Map<Integer, Integer> parents = new HashMap<>();
        nodes.values().forEach(node -> {
            if (node.has("children")) {
                node.getAsJsonArray("children").forEach(child -> parents.put(child.getAsInt(),
                        node.get("id").getAsInt()));
            }
        });
        Map<String, Double> total = new HashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (Integer id = samples.get(i).getAsInt(); id != null; id = parents.get(id)) {
                String name = frameName(nodes.get(id));
                if (seen.add(name)) {
                    total.merge(name, deltas.get(i).getAsDouble() / 1000.0, Double::sum);
                }
            }
        }
        System.out.println("Total time (with what each function called), cytoscape's own functions left out:");
        total.entrySet().stream().filter(entry -> !entry.getKey().contains("cytoscape.min"))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(45)
                .forEach(entry -> System.out.printf("  %7.1f ms  %s%n", entry.getValue(), entry.getKey()));
    }

    /**
     * With {@code -Dbench.trace=true}: one more open under Chromium's tracing, and the renderer main thread's time by
     * kind of work (self time of each trace event: script, style, layout, paint, parsing…), which the JS profile only
     * shows as "(program)". The trace is kept in target/designer-open-trace.json for chrome://tracing.
     */
    private void trace(Browser browser, String workflow) throws java.io.IOException {
        Path file = Path.of("target/designer-open-trace.json");
        browser.startTracing(page, new Browser.StartTracingOptions().setPath(file)
                .setCategories(TraceSummary.CATEGORIES));
        page.navigate(base + "/workflows/" + workflow + "/editor");
        page.waitForSelector("#canvas[data-drawn]");
        browser.stopTracing();
        TraceSummary.print("Trace of one open (positions stored), renderer main thread, self time by event:",
                TraceSummary.selfTimes(file, List.of("CrRendererMain")), 30);
    }

    /** A profile node's function as "name file:line". */
    private static String frameName(JsonObject node) {
        JsonObject frame = node.getAsJsonObject("callFrame");
        String url = frame.get("url").getAsString();
        return frame.get("functionName").getAsString() + " " + url.substring(url.lastIndexOf('/') + 1) + ":"
                + frame.get("lineNumber").getAsInt();
    }

    /** Lays the graph out (L) and saves it (Ctrl+S), as a designer would; waits for version 2. */
    private void saveLayout(String workflow) {
        page.navigate(base + "/workflows/" + workflow + "/editor");
        page.waitForSelector("#canvas[data-drawn]");
        page.locator("#canvas").focus();
        page.keyboard().press("l");
        page.keyboard().press("Control+s");
        page.waitForFunction("() => window.tokenflowDesigner.version === 2");
    }

    private static double percentile(List<Double> values, double p) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(p / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, index));
    }

    /** A start node fanning out to 10 lanes of 19 chained nodes (the first 8 longer), joined at the end. */
    private static ObjectNode lanes() {
        ObjectNode workflow = JsonNodeFactory.instance.objectNode();
        workflow.put("name", "bench-designer-" + UUID.randomUUID().toString().substring(0, 8));
        ArrayNode nodes = workflow.putArray("nodes");
        ArrayNode edges = workflow.putArray("edges");
        nodes.addObject().put("id", "start").put("type", "function").putObject("config").put("function", "noop");
        nodes.addObject().put("id", "end").put("type", "function").put("wait_for_all", true)
                .putObject("config").put("function", "noop");
        for (int lane = 0; lane < 10; lane++) {
            String previous = "start";
            for (int step = 0; step < 19 + (lane == 0 ? 8 : 0); step++) {
                String id = "lane" + lane + "_" + step;
                nodes.addObject().put("id", id).put("type", "function").putObject("config").put("function", "noop");
                edges.addObject().put("from", previous).put("to", id);
                previous = id;
            }
            edges.addObject().put("from", previous).put("to", "end");
        }
        return workflow;
    }

    private static Map<String, String> skipDownload() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        return env;
    }

    private static BrowserType.LaunchOptions launchOptions() {
        BrowserType.LaunchOptions options = new BrowserType.LaunchOptions().setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--no-first-run"));
        if (Files.isExecutable(SYSTEM_CHROMIUM)) {
            options.setExecutablePath(SYSTEM_CHROMIUM);
        }
        return options;
    }
}
