package io.tokenflow.agents.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.springframework.stereotype.Component;

import io.lettuce.core.KeyValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.tokenflow.agents.AgentSettings;
import io.tokenflow.redis.DedicatedConnection;
import io.tokenflow.redis.LuaScripts;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * The two lists of the seed-001 protocol: {@code agent:jobs}, where jobs wait for a runner, and {@code
 * agent:results:<job_id>}, where a job's result comes back and Tokenflow waits for it ({@code BLPOP}, on a connection
 * of the consumer thread's own, as a blocking pop would stall a shared one). Once the wait is over, {@link #close}
 * withdraws the job if no runner has taken it ({@code LREM} of the exact job text; each attempt's text is its own),
 * so no runner starts work nobody waits for, and leaves the result list to expire.
 *
 * <p>Why a tombstone rather than an {@code EXPIRE} after the wait: the runner creates the result list with its {@code
 * RPUSH} (seed 001; nothing in the protocol lets it set a TTL), and Redis has no empty lists, so before that push there
 * is no key to expire ({@code EXPIRE} on a missing key does nothing). The answer that comes late is the usual case (a
 * slow runner answers after the node gave up), and it comes after any {@code EXPIRE} Tokenflow could send. So once its
 * wait is over, Tokenflow pushes a tombstone and sets the TTL in one step ({@code push-tombstone.lua}): a later {@code
 * RPUSH} appends to a list that already expires (pushing keeps a key's TTL), whoever pushes and whenever, with no
 * sweeper and no record of abandoned jobs to keep. The TTL is {@code result-retention} but at least the job's timeout,
 * within which a runner honouring the job's {@code timeout_sec} answers; only an answer later than that makes a list
 * that stays. Waits skip tombstones, so a node's next attempt (same job id) takes an earlier attempt's late answer.
 */
@Component
class JobQueues {

    private static final Duration SLACK = Duration.ofSeconds(5);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final LuaScripts scripts;
    private final Duration retention;
    private final ThreadLocal<DedicatedConnection> blocking = new ThreadLocal<>();

    JobQueues(RedisConnections redis, RedisKeys keys, LuaScripts scripts, AgentSettings settings) {
        this.redis = redis;
        this.keys = keys;
        this.scripts = scripts;
        this.retention = settings.external().resultRetention();
    }

    /** Puts a job (its JSON text) at the end of {@code agent:jobs}. */
    void push(String job) {
        redis.commands().rpush(keys.agentJobs(), job);
    }

    /** The first result on the job's list within {@code timeout}, tombstones skipped; empty when none came. */
    Optional<String> await(String jobId, Duration timeout) {
        RedisClusterCommands<String, String> commands = blockingCommands(timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            KeyValue<String, String> popped = commands.blpop(seconds(left), keys.agentResults(jobId));
            if (popped == null || popped.isEmpty()) {
                return Optional.empty();
            }
            if (!popped.getValue().equals(tombstone(jobId))) {
                return Optional.of(popped.getValue());
            }
        }
        return Optional.empty();
    }

    /** Ends the wait for a job: withdraws it unless a runner has taken it, and leaves its result list to expire. */
    Closed close(String job, String jobId, Duration timeout) {
        boolean withdrawn = redis.commands().lrem(keys.agentJobs(), 0, job) > 0;
        Duration ttl = retention.compareTo(timeout) >= 0 ? retention : timeout;
        pushTombstone(jobId, ttl);
        return new Closed(withdrawn, ttl);
    }

    private void pushTombstone(String jobId, Duration ttl) {
        scripts.pushTombstone().run(redis.commands(), List.of(keys.agentResults(jobId)),
                List.of(tombstone(jobId), Long.toString(ttl.toMillis())));
    }

    private static String tombstone(String jobId) {
        return "{\"job_id\":\"" + jobId + "\",\"status\":\"abandoned\"}";
    }

    /** Whole milliseconds, at least one: Redis reads a blocking timeout of 0 as "for ever". */
    private static double seconds(long nanos) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)) / 1000.0;
    }

    private RedisClusterCommands<String, String> blockingCommands(Duration timeout) {
        DedicatedConnection connection = blocking.get();
        if (connection == null || !connection.isOpen()) {
            connection = redis.dedicated();
            blocking.set(connection);
        }
        connection.setTimeout(timeout.plus(SLACK));
        return connection.sync();
    }

    /**
     * @param withdrawn whether the job was still waiting for a runner (and is gone from {@code agent:jobs} now)
     * @param expiresIn how long the result list lives from now on, with anything pushed onto it
     */
    record Closed(boolean withdrawn, Duration expiresIn) {
    }
}
