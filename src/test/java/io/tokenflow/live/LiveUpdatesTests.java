package io.tokenflow.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.net.URI;
import java.security.Principal;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketExtension;
import org.springframework.web.socket.WebSocketMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * The live hub's pushes: a view that cannot show a run's change yet gets the topic pushed again until it can; a run
 * topic whose change the tailers missed is pushed once its view finds it; an event reaches every topic it changes in
 * the same round, however recently one of them was pushed for another event.
 */
class LiveUpdatesTests {

    private static final Duration PATIENCE = Duration.ofSeconds(5);
    private static final LiveSettings SETTINGS = new LiveSettings(true, Duration.ofMillis(50), Duration.ofSeconds(1),
            100, Duration.ofSeconds(10), 65_536, 1_000, Duration.ofMillis(100));

    private final LaggingView view = new LaggingView();
    private final LiveUpdates updates = new LiveUpdates(List.of(view), SETTINGS);
    private final Browser browser = new Browser();

    @AfterEach
    void stop() {
        updates.stop();
    }

    @Test
    void pushesATopicAgainForARunWhoseChangeItCouldNotShowYet() {
        subscribed();
        UUID run = UUID.randomUUID();
        view.behindFor.set(2);

        updates.accept(new LiveEntry(run, List.of()));

        await().atMost(PATIENCE).until(() -> view.caughtUp.get() == 1);
        await().atMost(PATIENCE).until(() -> browser.received.size() == 4);
        assertThat(view.prepared).containsExactly(Set.of(run), Set.of(run), Set.of(run));
        assertThat(browser.received).containsExactly("push 1", "push 2", "push 3", "push 4");
    }

    @Test
    void pushesAChangeItCanShowOnce() {
        subscribed();
        UUID run = UUID.randomUUID();

        updates.accept(new LiveEntry(run, List.of()));

        await().atMost(PATIENCE).until(() -> view.caughtUp.get() == 1);
        await().during(Duration.ofMillis(300)).atMost(PATIENCE).until(() -> browser.received.size() == 2);
        assertThat(view.prepared).containsExactly(Set.of(run));
    }

    @Test
    void pushesATopicOnceItsViewFindsTheTailersMissedAChange() {
        subscribed();

        view.missed.set(true);

        await().atMost(PATIENCE).until(() -> browser.received.size() == 2);
        assertThat(view.prepared).containsExactly(Set.of());
        await().during(Duration.ofMillis(300)).atMost(PATIENCE).until(() -> browser.received.size() == 2);
    }

    @Test
    void pushesAnEventToEveryTopicItChangesInTheSameRound() {
        LiveSettings slow = new LiveSettings(true, Duration.ofSeconds(1), Duration.ofSeconds(1), 100,
                Duration.ofSeconds(10), 65_536, 1_000, Duration.ofHours(1));
        LiveUpdates hub = new LiveUpdates(List.of(new ListAndRunView()), slow);
        Browser list = new Browser();
        Browser runPage = new Browser();
        UUID watched = UUID.randomUUID();
        try {
            hub.start();
            hub.subscribe(new LiveSession(list, slow), "list", 0, Map.of());
            hub.subscribe(new LiveSession(runPage, slow), "run:" + watched, 0, Map.of());
            await().atMost(PATIENCE).until(() -> list.received.size() == 1 && runPage.received.size() == 1);

            hub.accept(new LiveEntry(UUID.randomUUID(), List.of())); // another run moves: the list alone changes
            await().atMost(PATIENCE).until(() -> list.received.size() == 2);
            hub.accept(new LiveEntry(watched, List.of())); // the watched run moves: both change

            await().atMost(PATIENCE).until(() -> runPage.received.size() == 2);
            long runPagePushed = System.nanoTime();
            await().atMost(Duration.ofMillis(500)).until(() -> list.received.size() == 3);
            assertThat(Duration.ofNanos(runPagePushed - list.pushedAt.get(1)))
                    .as("the run page waits for the round the list is pushed in again").isGreaterThan(
                            Duration.ofMillis(500));
        } finally {
            hub.stop();
        }
    }

    /** Starts the hub with the browser subscribed, once the first (full) push reached it. */
    private void subscribed() {
        updates.start();
        updates.subscribe(new LiveSession(browser, SETTINGS), LaggingView.TOPIC, 0, Map.of());
        await().atMost(PATIENCE).until(() -> browser.received.size() == 1);
    }

    /** A view whose data lags the events for the first {@code behindFor} pushes after a change. */
    private static final class LaggingView implements LiveView {

        static final String TOPIC = "lagging";

        final AtomicInteger behindFor = new AtomicInteger();
        final AtomicInteger caughtUp = new AtomicInteger();
        final List<Set<UUID>> prepared = new CopyOnWriteArrayList<>();
        /** Whether the view finds a missed change at its next resync (once). */
        final AtomicBoolean missed = new AtomicBoolean();
        private final AtomicInteger pushes = new AtomicInteger();

        @Override
        public boolean serves(String topic) {
            return TOPIC.equals(topic);
        }

        @Override
        public Collection<String> accept(LiveEntry entry) {
            return List.of(TOPIC);
        }

        @Override
        public void check(LiveSubscriber subscriber) {
        }

        @Override
        public Set<UUID> beforePush(Set<UUID> runs) {
            prepared.add(Set.copyOf(runs));
            if (behindFor.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                return runs;
            }
            caughtUp.incrementAndGet();
            return Set.of();
        }

        @Override
        public boolean missed(String topic) {
            return missed.getAndSet(false);
        }

        @Override
        public String render(LiveSubscriber subscriber, LiveChange change) {
            return "push " + pushes.incrementAndGet();
        }
    }

    /** Topic {@code list} changes with every entry, {@code run:<id>} with the entries of its run. */
    private static final class ListAndRunView implements LiveView {

        @Override
        public boolean serves(String topic) {
            return topic.equals("list") || topic.startsWith("run:");
        }

        @Override
        public Collection<String> accept(LiveEntry entry) {
            return List.of("list", "run:" + entry.run());
        }

        @Override
        public void check(LiveSubscriber subscriber) {
        }

        @Override
        public String render(LiveSubscriber subscriber, LiveChange change) {
            return subscriber.topic() + " " + change.runs();
        }
    }

    /** The browser end of a WebSocket: records what it was sent, and when. */
    private static final class Browser implements WebSocketSession {

        final List<String> received = new CopyOnWriteArrayList<>();
        final List<Long> pushedAt = new CopyOnWriteArrayList<>();

        @Override
        public void sendMessage(WebSocketMessage<?> message) {
            pushedAt.add(System.nanoTime());
            received.add(((TextMessage) message).getPayload());
        }

        @Override
        public String getId() {
            return "browser";
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public Principal getPrincipal() {
            return () -> "ada";
        }

        @Override
        public URI getUri() {
            return URI.create("ws://localhost/live");
        }

        @Override
        public HttpHeaders getHandshakeHeaders() {
            return new HttpHeaders();
        }

        @Override
        public Map<String, Object> getAttributes() {
            return Map.of();
        }

        @Override
        public InetSocketAddress getLocalAddress() {
            return null;
        }

        @Override
        public InetSocketAddress getRemoteAddress() {
            return null;
        }

        @Override
        public String getAcceptedProtocol() {
            return null;
        }

        @Override
        public void setTextMessageSizeLimit(int messageSizeLimit) {
        }

        @Override
        public int getTextMessageSizeLimit() {
            return 65_536;
        }

        @Override
        public void setBinaryMessageSizeLimit(int messageSizeLimit) {
        }

        @Override
        public int getBinaryMessageSizeLimit() {
            return 65_536;
        }

        @Override
        public List<WebSocketExtension> getExtensions() {
            return List.of();
        }

        @Override
        public void close() {
        }

        @Override
        public void close(CloseStatus status) {
        }
    }
}
