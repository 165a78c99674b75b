package io.tokenflow.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.Cookie;

import io.tokenflow.e2e.SharedBrowser;

/**
 * Real Chromium pages watching run pages while a load runs: each page opens the newest run offered to it, and an init
 * script records, for every event the page draws after its first push (which catches up on what happened while the
 * page loaded, as {@code LiveBenchmark}'s WebSocket watchers ignore theirs), the time from the event's {@code at} (the engine's
 * clock, the same machine's) to the first frame painted after the fragment showing it was swapped in (a
 * {@code requestAnimationFrame} after the DOM change, then a task: the frame has been handed to the compositor). When
 * the run ends the page's figures are collected and it opens the next run. All Playwright calls happen on this
 * watcher's own thread (Playwright is not thread-safe).
 * <p>
 * Each page has a browser context, so a window, of its own, as people watching runs each have their page in front:
 * headless Chromium draws frames late for pages that are not their window's active tab. With the four pages as tabs of
 * one window, three of them saw a DOM change painted p50 20-50 ms, p90 ~570 ms, up to 0.9 s later (the fourth within
 * 18 ms), with no server at all; that was most of what this benchmark used to report.
 */
final class BrowserWatchers implements AutoCloseable {

    /** Runs in the page: watches the timeline and the run summary for events newer than those drawn at load. */
    private static final String PIXEL_PROBE = """
            (() => {
              window.__latencies = [];
              window.__arrivals = [];
              window.__handling = [];
              window.__frames = [];
              let arrived = 0;
              document.addEventListener('htmx:wsBeforeMessage', () => { arrived = Date.now(); });
              let seen = -1;
              let caughtUp = false;
              const counted = new Set();
              const record = () => {
                const painted = Date.now();
                let newest = seen;
                document.querySelectorAll('[data-seq][data-at]').forEach(el => {
                  const seq = Number(el.dataset.seq), at = Number(el.dataset.at);
                  if (caughtUp && seq > seen && at > 0 && !counted.has(seq)) {
                    counted.add(seq);
                    window.__latencies.push(painted - at);
                    window.__arrivals.push(arrived - at);
                  }
                  newest = Math.max(newest, seq);
                });
                caughtUp = caughtUp || (seen >= 0 && newest > seen);
                seen = newest;
              };
              const afterPaint = () => requestAnimationFrame(() => setTimeout(record, 0));
              document.addEventListener('DOMContentLoaded', () => {
                // after the page's own listeners (registered as its scripts ran): the message's swap and redraw
                document.addEventListener('htmx:wsAfterMessage', () => {
                  const handled = Date.now();
                  window.__handling.push(handled - arrived);
                  requestAnimationFrame(() => window.__frames.push(Date.now() - handled));
                });
                record();
                new MutationObserver(afterPaint).observe(document.body,
                    {subtree: true, childList: true, attributes: true, attributeFilter: ['data-seq']});
              });
            })();""";

    /** Runs started, newest last (a run a page takes is still running: runs last seconds). */
    private final BlockingDeque<UUID> offered = new LinkedBlockingDeque<>();
    private final List<Long> latencies = new ArrayList<>();
    private final List<Long> arrivals = new ArrayList<>();
    private final List<Long> handling = new ArrayList<>();
    private final List<Long> frames = new ArrayList<>();
    private final Thread thread;
    private final String base;
    private final String sessionCookie;
    private final int pages;
    private final CountDownLatch ready = new CountDownLatch(1);
    /**
     * With {@code -Dbench.trace=true}: 5 s of Chromium's trace, 10 s into the measurement, summed up per kind of thread
     * over all pages (printed when the watchers close; the trace is kept in target/live-browser-trace.json).
     */
    private static final boolean TRACE = Boolean.getBoolean("bench.trace");
    private static final Path TRACE_FILE = Path.of("target/live-browser-trace.json");
    private long measuringSince;
    private long tracingUntil;
    private boolean traced;
    private volatile boolean stopping;
    private volatile boolean discarding;
    private volatile RuntimeException failure;

    BrowserWatchers(String base, String sessionCookie, int pages) throws InterruptedException {
        this.base = base;
        this.sessionCookie = sessionCookie;
        this.pages = pages;
        this.thread = new Thread(this::watch, "browser-watchers");
        thread.start();
        // Chromium starts and its pages open before the load does: else the first seconds of the load pass unwatched
        if (!ready.await(2, TimeUnit.MINUTES) || failure != null) {
            throw failure != null ? failure : new IllegalStateException("Expected Chromium's pages within 2 minutes");
        }
    }

    /**
     * Drops the figures gathered so far (the warm-up's), the pages' too, on the watcher's next round (within ~50 ms);
     * returns at once, so the load's pace does not stall.
     */
    void discard() {
        discarding = true;
    }

    /** A run that has just started; a page free to watch takes the newest not taken yet. */
    void offer(UUID run) {
        offered.addLast(run);
        while (offered.size() > 50) {
            offered.pollFirst();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.join();
        if (failure != null) {
            throw failure;
        }
        if (traced) {
            try {
                TraceSummary.print("Trace of 5 s of the browser phase (" + pages + " pages), self time by event, per"
                        + " kind of thread:", TraceSummary.selfTimes(TRACE_FILE, List.of("CrRendererMain",
                        "Compositor", "CrGpuMain", "VizCompositorThread", "CrBrowserMain")), 12);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** Latencies in ms of every event drawn (to the frame that shows it), once closed. */
    List<Long> latencies() {
        return latencies;
    }

    /** For the same events, ms from the event to the arrival of the WebSocket message that brought it. */
    List<Long> arrivals() {
        return arrivals;
    }

    /** Per WebSocket message: ms from its arrival to the end of the page's handling (swap and redraw). */
    List<Long> handling() {
        return handling;
    }

    /** Per WebSocket message: ms from the end of its handling to the start of the next frame. */
    List<Long> frames() {
        return frames;
    }

    private void watch() {
        try (SharedBrowser chromium = new SharedBrowser()) {
            Browser browser = chromium.browser();
            String[] cookie = sessionCookie.split("=", 2);
            List<Page> open = new ArrayList<>();
            for (int i = 0; i < pages; i++) {
                BrowserContext window = browser.newContext(new Browser.NewContextOptions().setViewportSize(1440, 900)
                        .setBypassCSP(true));
                window.addCookies(List.of(new Cookie(cookie[0], cookie[1]).setUrl(base)));
                window.addInitScript(PIXEL_PROBE);
                open.add(window.newPage());
            }
            ready.countDown();
            while (!stopping) {
                if (discarding) {
                    open.forEach(this::collect);
                    latencies.clear();
                    arrivals.clear();
                    handling.clear();
                    frames.clear();
                    discarding = false;
                    measuringSince = System.nanoTime();
                }
                if (TRACE) {
                    trace(browser, open.get(0));
                }
                for (Page page : open) {
                    watchNext(page);
                }
                open.get(0).waitForTimeout(50);
            }
            open.forEach(this::collect);
        } catch (RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ready.countDown();
            discarding = false;
        }
    }

    private void trace(Browser browser, Page page) {
        long now = System.nanoTime();
        if (traced || measuringSince == 0 || now < measuringSince + TimeUnit.SECONDS.toNanos(10)) {
            return;
        }
        if (tracingUntil == 0) {
            browser.startTracing(page, new Browser.StartTracingOptions().setPath(TRACE_FILE)
                    .setCategories(TraceSummary.CATEGORIES));
            tracingUntil = now + TimeUnit.SECONDS.toNanos(5);
        } else if (now >= tracingUntil) {
            browser.stopTracing();
            traced = true;
        }
    }

    /** A page that shows no run, or one that has ended, gives its figures and opens the newest run. */
    private void watchNext(Page page) throws InterruptedException {
        boolean idle = page.url().equals("about:blank") || Boolean.TRUE.equals(page.evaluate("() => "
                + "!document.querySelector('[data-last-seq]') || !!document.querySelector('[data-last-seq]"
                + "[data-status=COMPLETED], [data-last-seq][data-status=FAILED]')"));
        if (!idle) {
            return;
        }
        collect(page);
        UUID run = offered.pollLast(10, TimeUnit.MILLISECONDS);
        if (run != null) {
            page.navigate(base + "/runs/" + run);
        }
    }

    private void collect(Page page) {
        if (page.url().equals("about:blank")) {
            return;
        }
        add(page.evaluate("() => window.__latencies ? window.__latencies.splice(0) : []"), latencies);
        add(page.evaluate("() => window.__arrivals ? window.__arrivals.splice(0) : []"), arrivals);
        add(page.evaluate("() => window.__handling ? window.__handling.splice(0) : []"), handling);
        add(page.evaluate("() => window.__frames ? window.__frames.splice(0) : []"), frames);
    }

    private static void add(Object figures, List<Long> to) {
        if (figures instanceof List<?> list) {
            list.forEach(value -> to.add(((Number) value).longValue()));
        }
    }
}
