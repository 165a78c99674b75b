package io.tokenflow.workers;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The built-in workers, under {@code tokenflow.workers}.
 *
 * @param enabled       whether this instance runs the built-in workers at all
 * @param concurrency   threads running a worker type's tasks (2 unless named here; 0 turns a type off); on a
 *                      single Redis each also reads, on a Redis Cluster they are fed by a reading thread per shard
 * @param batchSize     tokens taken per read ({@code XREADGROUP … COUNT})
 * @param block         how long one read waits for tokens; also bounds how long stopping takes
 * @param claimIdle     how long a token may stay unacknowledged before another consumer takes it over
 * @param claimInterval how often each consumer looks for such tokens
 * @param announceStartAfter work on a token that takes longer than this is reported as started (node.started)
 * @param cel           limits of the CEL expressions of transform, filter and aggregate
 */
@ConfigurationProperties("tokenflow.workers")
public record WorkerSettings(@DefaultValue("true") boolean enabled, Map<String, Integer> concurrency,
                             @DefaultValue("32") int batchSize, @DefaultValue("1s") Duration block,
                             @DefaultValue("30s") Duration claimIdle, @DefaultValue("5s") Duration claimInterval,
                             @DefaultValue("200ms") Duration announceStartAfter, @DefaultValue Cel cel) {

    private static final int DEFAULT_CONCURRENCY = 2;
    private static final Map<String, Integer> DEFAULTS = Map.of("function", 4);

    public WorkerSettings {
        Map<String, Integer> merged = new HashMap<>(DEFAULTS);
        if (concurrency != null) {
            merged.putAll(concurrency);
        }
        merged.forEach((type, threads) -> require(threads != null && threads >= 0,
                "tokenflow.workers.concurrency." + type + " >= 0", threads));
        concurrency = Map.copyOf(merged);
        require(batchSize >= 1, "tokenflow.workers.batch-size >= 1", batchSize);
        requirePositive(block, "block");
        requirePositive(claimIdle, "claim-idle");
        requirePositive(claimInterval, "claim-interval");
        requirePositive(announceStartAfter, "announce-start-after");
        cel = cel == null ? new Cel(null, 0, 0) : cel;
    }

    /** Threads running one worker type's tasks. */
    public int concurrencyOf(String type) {
        return concurrency.getOrDefault(type, DEFAULT_CONCURRENCY);
    }

    /**
     * @param deadline      the longest one evaluation may run
     * @param maxIterations comprehension iterations allowed in one evaluation (all comprehensions together)
     * @param cacheSize     compiled expressions kept
     */
    public record Cel(@DefaultValue("100ms") Duration deadline, @DefaultValue("10000") int maxIterations,
                      @DefaultValue("1000") int cacheSize) {

        public Cel {
            deadline = deadline == null ? Duration.ofMillis(100) : deadline;
            maxIterations = maxIterations <= 0 ? 10_000 : maxIterations;
            cacheSize = cacheSize <= 0 ? 1000 : cacheSize;
            requirePositive(deadline, "cel.deadline");
        }
    }

    private static void requirePositive(Duration value, String name) {
        require(value != null && !value.isNegative() && !value.isZero(), "tokenflow.workers." + name + " > 0", value);
    }

    private static void require(boolean condition, String expectation, Object actual) {
        if (!condition) {
            throw new IllegalArgumentException("Expected " + expectation + ", but found " + actual);
        }
    }
}
