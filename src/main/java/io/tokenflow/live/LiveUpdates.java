package io.tokenflow.live;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.CurrentTenant;

/**
 * The live hub of this instance: pages subscribe to topics ({@code run:<id>}, {@code runs}, {@code approvals}); every
 * events-stream entry marks the topics it changes; a tick pushes each changed topic at most once per coalescing
 * interval, rendered by the topic's {@link LiveView}; every resync interval each topic's view is asked what the tailers
 * missed, and the topic is pushed for it. Subscriptions live only as long as their WebSocket: a page that
 * reconnects (to any instance) subscribes again with the last event it saw.
 */
@Component
public class LiveUpdates implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(LiveUpdates.class);
    private static final long TICK_MILLIS = 20;

    private final List<LiveView> views;
    private final LiveSettings settings;
    private final Map<String, LiveTopic> topics = new ConcurrentHashMap<>();
    private final AtomicBoolean resyncing = new AtomicBoolean();
    private ScheduledExecutorService ticks;
    private ExecutorService renderers;

    LiveUpdates(List<LiveView> views, LiveSettings settings) {
        this.views = List.copyOf(views);
        this.settings = settings;
    }

    /** Subscribes a page; the first push (everything the topic shows) follows at the next tick. */
    void subscribe(LiveSession session, String topic, long after, Map<String, String> params) {
        LiveView view = views.stream().filter(candidate -> candidate.serves(topic)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Expected a live topic such as 'runs', 'approvals' or "
                        + "'run:<id>', but found '" + topic + "'"));
        unsubscribe(session, topic);
        LiveSubscriber subscriber = new LiveSubscriber(topic, params, session.principal(), session.tenant(), after);
        CurrentTenant.callAs(subscriber.tenant(), () -> {
            view.check(subscriber);
            return null;
        });
        topics.compute(topic, (name, existing) -> {
            LiveTopic live = existing == null ? new LiveTopic(name, view) : existing;
            live.added(subscriber, session);
            return live;
        });
    }

    void unsubscribe(LiveSession session, String topic) {
        LiveTopic existing = topics.get(topic);
        if (existing != null) {
            existing.subscribers.values().removeIf(candidate -> candidate == session);
        }
    }

    void closed(LiveSession session) {
        for (String name : List.copyOf(topics.keySet())) {
            topics.computeIfPresent(name, (key, topic) -> {
                topic.subscribers.values().removeIf(candidate -> candidate == session);
                return topic.subscribers.isEmpty() ? null : topic;
            });
        }
    }

    /** Whether any page subscribes to a live topic on this instance (else the tailers rest). */
    boolean watched() {
        return !topics.isEmpty();
    }

    /** Called by the tailers for every entry, in stream order per shard. */
    void accept(LiveEntry entry) {
        for (LiveView view : views) {
            for (String name : view.accept(entry)) {
                LiveTopic topic = topics.get(name);
                if (topic != null) {
                    topic.changed(entry.run());
                }
            }
        }
    }

    private void tick() {
        long now = System.nanoTime();
        long coalesce = settings.coalesce().toNanos();
        for (LiveTopic topic : topics.values()) {
            if (topic.due(now, coalesce)) {
                renderers.execute(() -> flush(topic, now));
            }
        }
    }

    private void flush(LiveTopic topic, long now) {
        try {
            LiveTopic.Pending pending = topic.take(now);
            Set<UUID> behind = pending.changed() ? prepare(topic, pending.runs()) : Set.of();
            topic.subscribers.forEach((subscriber, session) -> {
                boolean full = pending.full().contains(subscriber);
                if (full || pending.changed()) {
                    push(topic, subscriber, session, new LiveChange(full, pending.runs()));
                }
            });
            behind.forEach(topic::changed);
        } finally {
            topic.flushed();
        }
    }

    /** Returns the runs whose changes the push cannot show yet. */
    private Set<UUID> prepare(LiveTopic topic, Set<UUID> runs) {
        try {
            return topic.view.beforePush(runs);
        } catch (RuntimeException e) {
            log.warn("Preparing live topic " + topic.name + " failed (pushing anyway): " + e.getMessage(), e);
            return Set.of();
        }
    }

    private void push(LiveTopic topic, LiveSubscriber subscriber, LiveSession session, LiveChange change) {
        try {
            session.send(CurrentTenant.callAs(subscriber.tenant(), () -> topic.view.render(subscriber, change)));
        } catch (RuntimeException e) {
            log.warn("Rendering live topic " + topic.name + " failed: " + e.getMessage(), e);
            session.send(LiveMessages.problem("The live view stopped: " + e.getMessage()));
        }
    }

    @Override
    public synchronized void start() {
        if (ticks != null) {
            return;
        }
        ticks = Executors.newSingleThreadScheduledExecutor(runnable -> daemon(runnable, "live-tick"));
        renderers = Executors.newFixedThreadPool(2, runnable -> daemon(runnable, "live-render"));
        ticks.scheduleWithFixedDelay(this::safeTick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
        long resync = settings.resync().toMillis();
        ticks.scheduleWithFixedDelay(this::startResync, resync, resync, TimeUnit.MILLISECONDS);
    }

    /** Asks each topic's view, on a render thread (it reads Redis or PostgreSQL), what the tailers missed. */
    private void startResync() {
        if (topics.isEmpty() || !resyncing.compareAndSet(false, true)) {
            return;
        }
        try {
            renderers.execute(this::resync);
        } catch (RuntimeException e) {
            resyncing.set(false);
            log.warn("Live resync not started: " + e.getMessage());
        }
    }

    private void resync() {
        try {
            for (LiveTopic topic : topics.values()) {
                try {
                    if (topic.view.missed(topic.name)) {
                        topic.changed();
                    }
                } catch (RuntimeException e) {
                    log.warn("Resyncing live topic " + topic.name + " failed: " + e.getMessage(), e);
                }
            }
        } finally {
            resyncing.set(false);
        }
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.warn("Live tick failed: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void stop() {
        if (ticks != null) {
            ticks.shutdownNow();
            renderers.shutdownNow();
            ticks = null;
            renderers = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return ticks != null;
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
