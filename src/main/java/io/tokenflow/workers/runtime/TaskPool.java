package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.StreamMessage;

/**
 * The hand-over between a worker type's reading threads and the threads that run its tasks, on a Redis Cluster. There
 * one read takes one shard's stream, so each shard has a reading thread of its own; if each reading thread ran what it
 * read, a shard's tasks would wait behind a slow one while other shards' threads idled, and multiplying the readers
 * by the shards multiplied the reads that come back nearly empty (the CPU per hop grew with the shards). So the
 * readers hand their batches to one pool of {@code concurrency} running threads ({@link PoolRunner}), whichever is
 * free: no task waits while a running thread is idle, whatever shard it is on.
 *
 * <p>Hand-written rather than a {@code ThreadPoolExecutor}: each running thread owns a pipelined Redis connection for
 * its completions and acknowledgements, and a reader must keep holding (and renewing) a batch until a thread has taken
 * it. A batch is split into as many parts as threads wait for work (at least one), so slow tasks read together still
 * run side by side, while under load a batch stays whole and its completions go out together.
 */
final class TaskPool {

    private static final long OFFER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final SynchronousQueue<List<StreamMessage<String, String>>> handOver = new SynchronousQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean open = true;

    /**
     * Hands a reader's batch over, part by part, each once a running thread takes it; {@code held} (the reader's)
     * covers the parts not yet taken. Gives up only when the pool has closed (the entries stay pending and are
     * delivered again).
     */
    void handOver(List<StreamMessage<String, String>> batch, HeldTokens held, List<TaskEntry> entries) {
        if (batch.isEmpty()) {
            return;
        }
        held.hold(entries);
        try {
            int parts = Math.max(1, Math.min(batch.size(), waiting.get()));
            int from = 0;
            for (int part = 0; part < parts; part++) {
                int to = from + (batch.size() - from) / (parts - part);
                if (!offer(new ArrayList<>(batch.subList(from, to)))) {
                    return;
                }
                from = to;
                held.handedOver(from);
            }
        } finally {
            held.release();
        }
    }

    private boolean offer(List<StreamMessage<String, String>> part) {
        try {
            while (!handOver.offer(part, OFFER_NANOS, TimeUnit.NANOSECONDS)) {
                if (!open) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The next part to run, waiting up to {@code wait} (not at all when zero); null when none came. */
    List<StreamMessage<String, String>> next(Duration wait) {
        if (wait.isZero()) {
            return handOver.poll();
        }
        waiting.incrementAndGet();
        try {
            return handOver.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            waiting.decrementAndGet();
        }
    }

    /** Whether running threads should go on waiting for work: until the readers have stopped and handed all over. */
    boolean open() {
        return open;
    }

    /** Called once every reader has stopped: running threads finish what they hold and stop. */
    void close() {
        open = false;
    }
}
