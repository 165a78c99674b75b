package io.tokenflow.e2e;

import java.nio.file.Path;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a fresh {@link Page} (its own cookies) at 1280×800, from the {@link SharedBrowser} kept in the
 * root store so that it is closed once, when the whole run ends. A failed test leaves screenshots of its pages in
 * {@code target/failed-tests/}.
 */
final class BrowserExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(BrowserExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Page.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Browser browser = context.getRoot().getStore(NAMESPACE).computeIfAbsent(SharedBrowser.class).browser();
        BrowserContext browserContext = browser.newContext(new Browser.NewContextOptions().setViewportSize(1280, 800));
        context.getStore(NAMESPACE).put(BrowserContext.class, browserContext);
        return browserContext.newPage();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        BrowserContext browserContext = context.getStore(NAMESPACE).remove(BrowserContext.class, BrowserContext.class);
        if (browserContext == null) {
            return;
        }
        if (context.getExecutionException().isPresent()) {
            for (int i = 0; i < browserContext.pages().size(); i++) {
                browserContext.pages().get(i).screenshot(new Page.ScreenshotOptions().setPath(Path.of("target",
                        "failed-tests", context.getRequiredTestMethod().getName() + "-" + i + ".png")));
            }
        }
        browserContext.close();
    }
}
