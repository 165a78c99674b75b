package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.Consumer;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.workers.WorkerSettings;

/**
 * One consumer thread of one worker type: reads batches of new tokens, and every claim interval takes over tokens
 * left pending by dead consumers, and gives each batch to its sink: a {@link BatchProcessor} running it on this thread
 * (on a single Redis), or a {@link TaskPool} handing it to a running thread (on a cluster). {@link #stop()} lets the
 * current batch finish (or be handed over).
 */
final class TaskConsumer implements Runnable, TokenHolder {

    /** Where a consumer's batches go; returns once the batch is finished or handed over. */
    @FunctionalInterface
    interface BatchSink {
        void accept(List<StreamMessage<String, String>> batch);
    }

    private static final Logger log = LoggerFactory.getLogger(TaskConsumer.class);
    private static final Duration BACKOFF = Duration.ofSeconds(1);

    private final DedicatedConnection connection;
    private final TaskStreams streams;
    private final BatchSink batches;
    private final HeldTokens held;
    private final WorkerSettings settings;
    private final String name;
    private volatile boolean running = true;
    private long nextClaim;

    TaskConsumer(DedicatedConnection connection, TaskStreams streams, BatchSink batches,
                 HeldTokens held, WorkerSettings settings, String name) {
        this.connection = connection;
        this.streams = streams;
        this.batches = batches;
        this.held = held;
        this.settings = settings;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    void stop() {
        running = false;
    }

    @Override
    public HeldTokens held() {
        return held;
    }

    @Override
    public Consumer<String> consumer() {
        return streams.consumer();
    }

    @Override
    public void run() {
        log.debug("Worker {} started", name);
        try (connection) {
            boolean ready = false;
            while (running) {
                ready = step(ready);
            }
            streams.finish();
        } catch (RuntimeException e) {
            log.warn("Worker {} could not acknowledge its last tokens; they will be delivered again", name, e);
        }
        log.debug("Worker {} stopped", name);
    }

    /** One read (and claim, when due); returns whether the consumer groups are known to exist. */
    private boolean step(boolean groupsReady) {
        try {
            if (!groupsReady) {
                streams.ensureGroups();
            }
            claimWhenDue();
            batches.accept(streams.read(settings.batchSize(), settings.block()));
            return true;
        } catch (RedisCommandExecutionException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("NOGROUP")) {
                return false;
            }
            backOff(e);
            return groupsReady;
        } catch (RuntimeException e) {
            backOff(e);
            return groupsReady;
        }
    }

    private void claimWhenDue() {
        long now = System.nanoTime();
        if (now - nextClaim < 0) {
            return;
        }
        List<StreamMessage<String, String>> claimed = streams.claim(settings.batchSize(), settings.claimIdle());
        if (!claimed.isEmpty()) {
            log.info("Worker {} took over {} tokens left pending by other consumers", name, claimed.size());
        }
        batches.accept(claimed);
        boolean more = claimed.size() >= settings.batchSize();
        nextClaim = more ? now : now + settings.claimInterval().toNanos();
    }

    private void backOff(RuntimeException e) {
        if (!running) {
            return;
        }
        log.warn("Worker {} failed to work with Redis; retrying in {}", name, BACKOFF, e);
        try {
            Thread.sleep(BACKOFF.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
