package io.tokenflow.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.tokenflow.engine.replay.MapItemsDone;
import io.tokenflow.engine.runs.RunStatus;

/**
 * Drains one shard's events stream into PostgreSQL, one batch per transaction, acknowledging only what was written;
 * an entry PostgreSQL refuses, or that cannot be read, goes to the quarantine and its run fails
 * ({@link PoisonIsolation}).
 * Entries left unacknowledged stay pending for this consumer and are read again: after a failed batch with growing
 * backoff; when they wait for earlier events (e.g. in another supervisor's batch) after a delay that grows with how
 * long the youngest of them has waited, so an entry whose earlier events never come is retried rarely without holding
 * up the ones that wait for a moment only. On start it takes over every entry another member left unacknowledged
 * (the shard's former holder, {@link EventLogDrain}); later, entries abandoned by another supervisor are taken over
 * after {@code claimIdle}.
 */
final class ShardEventLoop implements Runnable {

    private static final Log log = LogFactory.getLog(ShardEventLoop.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final ShardEvents events;
    private final EventsEntries entries;
    private final PoisonIsolation writer;
    private final SupervisorSettings settings;
    private final Consumer<Map<UUID, RunStatus>> afterEndings;
    private final BiConsumer<UUID, MapItemsDone> afterMaps;
    private final Consumer<List<EventsEntry>> afterLogged;
    private final RetryBackoff backoff;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private String pendingAfter = "0";
    private boolean pendingToRetry;
    private long retryAtNanos;
    private long claimAtNanos;
    private String takeOverFrom = "0-0";
    private boolean takingOver = true;
    private long lastReadAtNanos;
    private boolean lingerNext;

    ShardEventLoop(ShardEvents events, EventsEntries entries, PoisonIsolation writer,
                   SupervisorSettings settings) {
        this(events, entries, writer, settings, ended -> { }, (run, done) -> { }, logged -> { });
    }

    /**
     * @param afterEndings told of the runs each written batch ended, before their Redis state is let go
     * @param afterMaps    told of each map whose {@code map.items.done} a batch logged, before the batch is
     *                     acknowledged (so it is told again if this loop dies in between)
     * @param afterLogged  told of the entries each batch wrote to the event log, after they are acknowledged
     */
    ShardEventLoop(ShardEvents events, EventsEntries entries, PoisonIsolation writer, SupervisorSettings settings,
                   Consumer<Map<UUID, RunStatus>> afterEndings, BiConsumer<UUID, MapItemsDone> afterMaps,
                   Consumer<List<EventsEntry>> afterLogged) {
        this.afterEndings = afterEndings;
        this.afterMaps = afterMaps;
        this.afterLogged = afterLogged;
        this.events = events;
        this.entries = entries;
        this.writer = writer;
        this.settings = settings;
        this.backoff = new RetryBackoff(settings.block(), MAX_BACKOFF, log,
                "Writing events of shard " + events.shard() + " to PostgreSQL");
        this.claimAtNanos = System.nanoTime() + settings.claimIdle().toNanos();
    }

    @Override
    public void run() {
        events.ensureGroup();
        while (stopped.getCount() > 0) {
            try {
                handle(next());
            } catch (RuntimeException e) {
                if (stopped.getCount() > 0) {
                    failed(e);
                }
            }
        }
    }

    private void mapsDone(List<EventsEntry> logged) {
        for (EventsEntry entry : logged) {
            entry.events().stream().filter(MapItemsDone.class::isInstance)
                    .forEach(event -> afterMaps.accept(entry.run(), (MapItemsDone) event));
        }
    }

    private static List<EventsEntry> logged(List<EventsEntry> written, List<String> done) {
        if (done.size() == written.size()) {
            return written;
        }
        Set<String> logged = new HashSet<>(done);
        return written.stream().filter(entry -> logged.contains(entry.id())).toList();
    }

    void stop() {
        stopped.countDown();
    }

    private List<StreamMessage<String, String>> next() {
        if (takingOver) {
            ShardEvents.Taken taken = events.takeOver(takeOverFrom);
            takeOverFrom = taken.next();
            takingOver = !"0-0".equals(takeOverFrom);
            if (!taken.messages().isEmpty()) {
                log.info("Took over " + taken.messages().size() + " unacknowledged entries of shard "
                        + events.shard());
                return taken.messages();
            }
        }
        long now = System.nanoTime();
        if (now - claimAtNanos >= 0) {
            claimAtNanos = now + settings.claimIdle().toNanos();
            List<StreamMessage<String, String>> claimed = events.claimAbandoned();
            if (!claimed.isEmpty()) {
                log.info("Took over " + claimed.size() + " abandoned entries of shard " + events.shard());
                return claimed;
            }
        }
        if (pendingToRetry && now - retryAtNanos >= 0) {
            return nextPending();
        }
        return readNew();
    }

    /**
     * New entries; after a read that found some but did not fill a batch, not before {@code linger} has passed since
     * it began. After a read that found none the next one waits for new entries at once, so the first entry after a
     * quiet spell is written without delay.
     */
    private List<StreamMessage<String, String>> readNew() {
        long wait = lastReadAtNanos + settings.linger().toNanos() - System.nanoTime();
        if (lingerNext && wait > 0) {
            pause(Duration.ofNanos(wait));
        }
        lastReadAtNanos = System.nanoTime();
        List<StreamMessage<String, String>> read = events.readNew();
        lingerNext = !read.isEmpty() && read.size() < settings.batchSize();
        return read;
    }

    private List<StreamMessage<String, String>> nextPending() {
        List<StreamMessage<String, String>> pending = events.readPending(pendingAfter);
        if (pending.isEmpty()) {
            pendingToRetry = !pendingAfter.equals("0");
            pendingAfter = "0";
        } else {
            pendingAfter = pending.size() < settings.batchSize() ? "0" : pending.get(pending.size() - 1).getId();
        }
        return pending;
    }

    private void handle(List<StreamMessage<String, String>> messages) {
        if (messages.isEmpty()) {
            return;
        }
        EventsEntries.Read read = entries.read(messages);
        if (!read.unreadable().isEmpty()) {
            writer.setAside(events.shard(), events.stream(), read.unreadable());
            events.acknowledge(read.unreadable().stream().map(EventsEntries.Unreadable::id).toList());
        }
        if (read.entries().isEmpty()) {
            return;
        }
        EventLogWriter.Outcome outcome = writer.write(events.shard(), events.stream(), read.entries(), messages);
        List<EventsEntry> logged = logged(read.entries(), outcome.done());
        mapsDone(logged);
        events.acknowledge(outcome.done());
        afterLogged.accept(logged);
        if (!outcome.endings().isEmpty()) {
            afterEndings.accept(outcome.endings());
        }
        events.forget(new ArrayList<>(outcome.ended()));
        backoff.succeeded();
        if (!outcome.waiting().isEmpty()) {
            log.debug(outcome.waiting().size() + " entries of shard " + events.shard() + " wait for earlier events");
            retryWaiting(outcome.waiting());
        }
    }

    /**
     * Reads the pending entries again after a quarter of the time the youngest waiting entry has waited (at least
     * {@code block}, at most {@link #MAX_BACKOFF}), or sooner when a retry is already scheduled sooner.
     */
    private void retryWaiting(List<String> waiting) {
        long now = System.currentTimeMillis();
        long waited = waiting.stream().mapToLong(id -> now - Long.parseLong(id.substring(0, id.indexOf('-'))))
                .min().orElse(0);
        long delay = Math.max(settings.block().toMillis(), Math.min(waited / 4, MAX_BACKOFF.toMillis()));
        long nanos = System.nanoTime();
        long at = nanos + TimeUnit.MILLISECONDS.toNanos(delay);
        boolean scheduled = pendingToRetry && retryAtNanos - nanos > 0;
        if (!scheduled || at - retryAtNanos < 0) {
            retryAtNanos = at;
        }
        pendingToRetry = true;
    }

    private void failed(RuntimeException e) {
        if (e instanceof RedisCommandExecutionException && String.valueOf(e.getMessage()).startsWith("NOGROUP")) {
            // the stream went with Redis's data (flushed, restarted without its file): read it anew, at once
            log.warn("The events stream of shard " + events.shard() + " lost its consumer group; creating it again");
            try {
                events.ensureGroup();
                pendingAfter = "0";
                return;
            } catch (RuntimeException notNow) {
                e = notNow;
            }
        }
        Duration delay = backoff.failed(e);
        retryLater(delay);
        pause(delay);
    }

    private void retryLater(Duration delay) {
        pendingToRetry = true;
        retryAtNanos = System.nanoTime() + delay.toNanos();
    }

    private void pause(Duration delay) {
        try {
            stopped.await(delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.countDown();
        }
    }
}
