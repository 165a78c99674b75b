package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.tokenflow.signing.EngineSignals;

/**
 * Reports the start of slow work: a token a consumer has worked on for longer than {@code announceAfter} gets a
 * {@code started} signal on its shard's completions stream (docs/worker-protocol.md), so its node shows as running.
 * Quick work sends none: most hops cost no extra signal.
 */
final class StartAnnouncer {

    private static final Logger log = LoggerFactory.getLogger(StartAnnouncer.class);

    private final List<TokenHolder> consumers;
    private final EngineSignals signals;
    private final long afterNanos;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "worker-starts");
        thread.setDaemon(true);
        return thread;
    });

    StartAnnouncer(List<TokenHolder> consumers, EngineSignals signals, Duration announceAfter) {
        this.consumers = List.copyOf(consumers);
        this.signals = signals;
        this.afterNanos = announceAfter.toNanos();
    }

    void start() {
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), afterNanos / 2);
        scheduler.scheduleWithFixedDelay(this::announceAll, period, period, TimeUnit.NANOSECONDS);
    }

    void stop() {
        scheduler.shutdownNow();
    }

    private void announceAll() {
        for (TokenHolder consumer : consumers) {
            consumer.workingLongerThan(afterNanos).ifPresent(working -> announce(consumer, working));
        }
    }

    private void announce(TokenHolder consumer, HeldTokens.Working working) {
        TaskEntry entry = working.entry();
        if (!entry.identified()) {
            return;
        }
        Map<String, String> signal = new LinkedHashMap<>();
        signal.put("kind", "started");
        signal.put("token", entry.field("token"));
        signal.put("run", entry.field("run"));
        signal.put("node", entry.field("node"));
        signal.put("worker", consumer.name());
        signal.put("started_at", Long.toString(working.sinceMillis()));
        try {
            signals.post(entry.shard(), signal);
        } catch (RuntimeException e) {
            log.debug("Could not report the start of {}; its node shows as dispatched until it completes", entry, e);
        }
    }
}
