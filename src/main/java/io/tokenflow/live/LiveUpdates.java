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
 * events-stream entry marks the topics it changes; changed topics are pushed in rounds, rendered by each topic's
 * {@link LiveView}; every resync interval each topic's view is asked what the tailers missed, and the topic is pushed
 * for it. Subscriptions live only as long as their WebSocket: a page that reconnects (to any instance) subscribes
 * again with the last event it saw.
 * <p>
 * Rounds are the coalescing rule, shared by all topics: a tick is a round when the last round that pushed events'
 * changes began at least the coalescing interval ago, so a change after a quiet period goes out at the next tick and
 * later ones wait for the next round. One clock for all topics (not one per topic) pushes an event to every topic it
 * changes in the same round: the runs list and a run's page move together, where with a clock per topic one could
 * trail the other by up to the interval.
 */
@Component
public class LiveUpdates implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(LiveUpdates.class);
    private static final long TICK_MILLIS = 20;

    private final List<LiveView> views;
    private final LiveSettings settings;
    private final Map<String, LiveTopic> topics = new ConcurrentHashMap<>();
    private final AtomicBoolean resyncing = new AtomicBoolean();
    /** When the last round that pushed events' changes began (read and written by the tick thread only). */
    private long lastRoundNanos = Long.MIN_VALUE / 2;
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
        boolean round = now - lastRoundNanos >= settings.coalesce().toNanos();
        boolean pushedEvents = false;
        for (LiveTopic topic : topics.values()) {
            boolean byEvents = round && topic.changedByEvents();
            if (topic.due(round)) {
                pushedEvents |= byEvents;
                renderers.execute(() -> flush(topic));
            }
        }
        if (pushedEvents) {
            lastRoundNanos = now;
        }
    }

    private void flush(LiveTopic topic) {
        try {
            LiveTopic.Pending pending = topic.take();
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
