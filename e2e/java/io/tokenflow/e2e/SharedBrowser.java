package io.tokenflow.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;

/**
 * One Playwright and one headless Chromium for the whole test run (creating Playwright costs seconds). Uses the
 * system's Chromium when there is one (Playwright must not download a browser here); else Playwright's own. The
 * benchmarks that measure in a browser start one too.
 */
public final class SharedBrowser implements AutoCloseable {

    private static final Path SYSTEM_CHROMIUM = Path.of("/usr/bin/chromium");

    private final Playwright playwright;
    private final Browser browser;

    public SharedBrowser() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        playwright = Playwright.create(new Playwright.CreateOptions().setEnv(env));
        BrowserType.LaunchOptions options = new BrowserType.LaunchOptions().setHeadless(true)
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--no-first-run"));
        if (Files.isExecutable(SYSTEM_CHROMIUM)) {
            options.setExecutablePath(SYSTEM_CHROMIUM);
        }
        browser = playwright.chromium().launch(options);
    }

    public Browser browser() {
        return browser;
    }

    @Override
    public void close() {
        browser.close();
        playwright.close();
    }
}
