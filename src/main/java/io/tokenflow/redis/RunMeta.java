package io.tokenflow.redis;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.runs.RunStatus;

/**
 * A run's meta hash ({@code wf.run:{N}:<run>:meta}), read from Java. The Lua steps write it (start-run.lua creates
 * it, every step moves {@code seq} and {@code last}, the endings set {@code status}); this class is the only Java code
 * that knows its field names.
 *
 * <pre>
 * status    RUNNING | COMPLETED | FAILED | CANCELLED, or COMPENSATING while an ended run's compensators run
 * ended     while COMPENSATING: the status the run ended in (it goes back to it)
 * comp      while COMPENSATING: the compensation steps after the one on its way (JSON array)
 * seq       the last event seq handed out
 * workflow  pinned workflow id       version   pinned version      revision  the run's IR revision (0: the version's)
 * input     the run's input (JSON)   created   start (epoch ms)    last      last activity (epoch ms)
 * iterations  the last loop iteration the run handed out (absent: none yet)
 * hops:&lt;node&gt;  tokens that reached a node with limits.max_hops (only such nodes)
 * </pre>
 */
@Component
public class RunMeta {

    private static final String STATUS = "status";
    private static final String SEQ = "seq";
    private static final String WORKFLOW = "workflow";
    private static final String VERSION = "version";
    private static final String REVISION = "revision";
    private static final String INPUT = "input";
    private static final String CREATED = "created";
    private static final String LAST = "last";
    private static final String ENDED = "ended";
    private static final String COMP = "comp";
    private static final String COMPENSATING = "COMPENSATING";
    private static final String ITERATIONS = "iterations";

    private final RedisConnections redis;
    private final RedisKeys keys;

    RunMeta(RedisConnections redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** What a run's plan is made from: its pinned workflow version, its IR revision and its input. */
    public record Pinned(UUID workflowId, int version, int revision, String input) {
    }

    /**
     * The fields the run pages show.
     *
     * @param last the last activity, or {@code null} when the run has none recorded yet
     */
    public record Fields(RunStatus status, UUID workflowId, int version, String input, Instant created, Instant last) {
    }

    /** Whether Redis holds the run (it is running, or ended within the finished-run retention). */
    public boolean exists(UUID run) {
        return exists(run, keys.shardOf(run));
    }

    public boolean exists(UUID run, int shard) {
        return redis.commands().exists(key(run, shard)) > 0;
    }

    /** The run's status; a run being compensated has the status it ended in. */
    public Optional<RunStatus> status(UUID run) {
        List<KeyValue<String, String>> state = redis.commands().hmget(key(run, keys.shardOf(run)), STATUS, ENDED);
        return state.get(0).hasValue() ? Optional.of(status(state.get(0).getValue(), state.get(1).getValueOrElse(null)))
                : Optional.empty();
    }

    private static RunStatus status(String status, String ended) {
        return RunStatus.valueOf(COMPENSATING.equals(status) ? ended : status);
    }

    /** While the run's compensators run: the steps after the one on its way (JSON array text); else empty. */
    public Optional<String> compensationSteps(UUID run, int shard) {
        List<KeyValue<String, String>> state = redis.commands().hmget(key(run, shard), STATUS, COMP);
        return COMPENSATING.equals(state.get(0).getValueOrElse(null)) && state.get(1).hasValue()
                ? Optional.of(state.get(1).getValue()) : Optional.empty();
    }

    /**
     * Asks for the run's status on a consumer's own pipelined connection, without waiting; {@code null} in the reply:
     * no such run.
     */
    public static RedisFuture<String> askStatus(RedisClusterAsyncCommands<String, String> async, RedisKeys keys,
                                                UUID run, int shard) {
        return async.hget(keys.run(run, shard).meta(), STATUS);
    }

    /** Whether a status {@link #askStatus} answered is of a run that wants its tokens (neither cancelled nor failed). */
    public static boolean wantsTokens(String status) {
        return status != null && !RunStatus.CANCELLED.name().equals(status) && !RunStatus.FAILED.name().equals(status);
    }

    /** The last loop iteration the run handed out (route-completion.lua moves it); 0 when none yet. */
    public static int lastIteration(RedisClusterCommands<String, String> commands, RedisKeys.RunKeys run) {
        String last = commands.hget(run.meta(), ITERATIONS);
        return last == null ? 0 : Integer.parseInt(last);
    }

    /** The last event seq the run's steps handed out; empty when Redis does not hold the run. */
    public OptionalLong seq(UUID run) {
        return seq(run, keys.shardOf(run));
    }

    public OptionalLong seq(UUID run, int shard) {
        String seq = redis.commands().hget(key(run, shard), SEQ);
        return seq == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(seq));
    }

    /** The IR revision of a running run; empty when the run is not running (ended, unknown). */
    public OptionalInt runningRevision(UUID run) {
        List<KeyValue<String, String>> state = redis.commands().hmget(key(run, keys.shardOf(run)), STATUS, REVISION);
        if (!state.get(0).hasValue() || !RunStatus.RUNNING.name().equals(state.get(0).getValue())
                || !state.get(1).hasValue()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of(Integer.parseInt(state.get(1).getValue()));
    }

    public Optional<Pinned> pinned(UUID run, int shard) {
        List<KeyValue<String, String>> meta = redis.commands().hmget(key(run, shard), WORKFLOW, VERSION, REVISION,
                INPUT);
        if (meta.stream().anyMatch(KeyValue::isEmpty)) {
            return Optional.empty();
        }
        return Optional.of(new Pinned(UUID.fromString(meta.get(0).getValue()), Integer.parseInt(meta.get(1).getValue()),
                Integer.parseInt(meta.get(2).getValue()), meta.get(3).getValue()));
    }

    public Optional<Fields> fields(UUID run) {
        List<KeyValue<String, String>> meta = redis.commands().hmget(key(run, keys.shardOf(run)), STATUS, WORKFLOW,
                VERSION, INPUT, CREATED, LAST, ENDED);
        if (!meta.get(0).hasValue() || !meta.get(1).hasValue()) {
            return Optional.empty();
        }
        return Optional.of(new Fields(status(meta.get(0).getValue(), meta.get(6).getValueOrElse(null)),
                UUID.fromString(meta.get(1).getValue()), Integer.parseInt(meta.get(2).getValueOrElse("0")), meta.get(3).getValueOrElse(null),
                Instant.ofEpochMilli(Long.parseLong(meta.get(4).getValueOrElse("0"))),
                meta.get(5).hasValue() ? Instant.ofEpochMilli(Long.parseLong(meta.get(5).getValue())) : null));
    }

    private String key(UUID run, int shard) {
        return keys.run(run, shard).meta();
    }
}
