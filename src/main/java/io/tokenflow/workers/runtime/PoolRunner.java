package io.tokenflow.workers.runtime;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.tokenflow.redis.DedicatedConnection;

/**
 * One of a worker type's running threads on a Redis Cluster ({@link TaskPool}): runs the batches readers hand over,
 * on a connection of its own (completions and acknowledgements pipelined as a {@link TaskConsumer} does). Before it
 * waits for more work it sends its queued acknowledgements. It stops once the pool closes and nothing is left.
 */
final class PoolRunner implements Runnable, TokenHolder {

    private static final Logger log = LoggerFactory.getLogger(PoolRunner.class);

    private final DedicatedConnection connection;
    private final TaskStreams streams;
    private final BatchProcessor batches;
    private final HeldTokens held;
    private final TaskPool pool;
    private final Duration wait;
    private final String name;

    PoolRunner(DedicatedConnection connection, TaskStreams streams, BatchProcessor batches, HeldTokens held,
               TaskPool pool, Duration wait, String name) {
        this.connection = connection;
        this.streams = streams;
        this.batches = batches;
        this.held = held;
        this.pool = pool;
        this.wait = wait;
        this.name = name;
    }

    @Override
    public String name() {
        return name;
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
        try (connection) {
            while (true) {
                List<StreamMessage<String, String>> batch = pool.next(Duration.ZERO);
                if (batch == null) {
                    finish();
                    batch = pool.next(wait);
                }
                if (batch != null) {
                    process(batch);
                } else if (!pool.open()) {
                    break;
                }
            }
            finish();
        }
        log.debug("Worker {} stopped", name);
    }

    private void process(List<StreamMessage<String, String>> batch) {
        try {
            batches.process(batch);
        } catch (RuntimeException e) {
            log.warn("Worker {} failed to work with Redis; its tokens stay pending and are delivered again", name, e);
        }
    }

    private void finish() {
        try {
            streams.finish();
        } catch (RuntimeException e) {
            log.warn("Worker {} could not acknowledge its last tokens; they will be delivered again", name, e);
        }
    }
}
