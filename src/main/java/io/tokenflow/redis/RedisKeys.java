package io.tokenflow.redis;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.stereotype.Component;

/**
 * The one place Redis key and stream names are built. Every name carries its shard as a hash tag ({@code {N}}), so
 * the keys of one run and the streams of its shard live in one Redis Cluster slot and one Lua step may touch them all.
 *
 * <pre>
 * wf.tasks.&lt;type&gt;:{N}          stream   tokens for workers of a node type           group wf.workers.&lt;type&gt;
 * wf.completions:{N}            stream   completion signals (and join-ready notes)  group wf.coordinators
 * wf.events:{N}                 stream   run events, in per-run sequence            group wf.supervisors
 * wf.active:{N}                 zset     running runs by last activity (epoch ms)
 * wf.idem:&lt;key&gt;                 string   run id started with an idempotency key (no hash tag: on no shard)
 * wf.signal.msg:&lt;t&gt;:&lt;name&gt;:&lt;id&gt; string  a tenant's signal message's answer (no hash tag)
 * wf.tenant.hops:{t.&lt;t&gt;}:&lt;minute&gt; string  a tenant's hops in one minute (tenants with a hops quota only)
 * wf.run:{N}:&lt;run&gt;:meta        hash     status, seq, workflow, version, revision, input, created, last, error,
 *                                        iterations (the last loop iteration handed out), hops:&lt;node&gt;
 * wf.run:{N}:&lt;run&gt;:counter     string   tokens in flight
 * wf.run:{N}:&lt;run&gt;:tokens      hash     in-flight token id → node (node#iteration inside loops)
 * wf.run:{N}:&lt;run&gt;:consumed    set      consumed token ids ("d:"+id join dispatched, "s:"+id start recorded)
 * wf.run:{N}:&lt;run&gt;:ctx         hash     node id → its latest output JSON
 * wf.run:{N}:&lt;run&gt;:joins       hash     join node#iteration → JSON of arrivals {dependency: token}
 * wf.run:{N}:&lt;run&gt;:loops       hash     loop node → "&lt;passes back&gt;@&lt;entry iteration&gt;" (gone on exit)
 * wf.run:{N}:&lt;run&gt;:approvals   hash     pending approval id → {node, token, request} (gone once decided)
 * wf.run:{N}:&lt;run&gt;:retries     hash     token id → its task's fields (JSON array), for tokens of nodes that retry
 * wf.due:{N}                    zset     due times (epoch ms): "retry &lt;run&gt; &lt;token&gt; &lt;node&gt;" (backoffs)
 * wf.run:{N}:&lt;run&gt;:llm_tokens  string   LLM tokens the run's agents used (expires on its own)
 * agent:jobs                    list     jobs for external agent runners (seed 001; no hash tag: runners' contract)
 * agent:results:&lt;job&gt;          list     the result of one external agent job (expires once nobody waits on it)
 * </pre>
 */
@Component
public class RedisKeys {

    public static final String WORKERS_GROUP_PREFIX = "wf.workers.";
    public static final String COORDINATORS_GROUP = "wf.coordinators";
    public static final String SUPERVISORS_GROUP = "wf.supervisors";
    /** Most shards there can be: a run's id carries its shard in 12 bits. */
    public static final int MAX_SHARDS = 4096;
    private static final String PREFIX = "wf";
    /**
     * The commands of {@link #workerAcl}: connecting (also to a cluster: its topology), the stream commands of the
     * worker protocol, and the ended-runs channel.
     */
    private static final String WORKER_ACL_COMMANDS = "resetkeys resetchannels -@all +hello +auth +ping +select "
            + "+client|setname +cluster|nodes +cluster|slots +cluster|shards +xgroup|create "
            + "+xreadgroup +xack +xautoclaim +xclaim +xpending +xadd +subscribe +unsubscribe";

    private final int shards;

    public RedisKeys(RedisSettings settings) {
        this.shards = settings.shards();
    }

    public int shards() {
        return shards;
    }

    /**
     * The shard a run belongs to, fixed for its whole life: written in its id (a version 8 UUID, see
     * {@code runs.RunIds}: the 12 bits after the version), so a run keeps its shard when shards are added. Ids of
     * another version (runs started before shards were written in ids, or ids made up by tests) hash onto the shards.
     */
    public int shardOf(UUID runId) {
        if (runId.version() == 8) {
            return (int) (runId.getMostSignificantBits() & 0xFFF);
        }
        return Math.floorMod(runId.hashCode(), shards);
    }

    /** The shard of a new run: any of the shards, at random, so that runs spread evenly over all of them. */
    public int nextShard() {
        return ThreadLocalRandom.current().nextInt(shards);
    }

    /** The stream a worker type reads its tokens from, e.g. {@code wf.tasks.function:{0}}. */
    public String taskStream(String workerType, int shard) {
        return PREFIX + ".tasks." + workerType + ":" + tag(shard);
    }

    /**
     * Redis ACL rules for the external workers of one node type, to follow {@code ACL SETUSER <user> on >password}:
     * what docs/worker-protocol.md has a worker do and nothing more. They read (in the type's group), claim and
     * acknowledge the type's tokens on every shard, add signals to the completions streams without being able to read
     * them (write-only, {@code %W~}), and hear of ended runs. Other types' tokens, everyone's signals and the runs'
     * state are closed to them, so on a shared Redis a tenant's workers (a custom type is one tenant's) see no other
     * tenant's work. Type names hold no glob characters.
     */
    public String workerAcl(String workerType) {
        return String.join(" ", WORKER_ACL_COMMANDS, "~" + PREFIX + ".tasks." + workerType + ":*",
                "%W~" + PREFIX + ".completions:*", "&" + runsEndedChannel());
    }

    /** The consumer group the workers of one type share. */
    public String workerGroup(String workerType) {
        return WORKERS_GROUP_PREFIX + workerType;
    }

    public String completionsStream(int shard) {
        return PREFIX + ".completions:" + tag(shard);
    }

    public String eventsStream(int shard) {
        return PREFIX + ".events:" + tag(shard);
    }

    public String activeRuns(int shard) {
        return PREFIX + ".active:" + tag(shard);
    }

    /**
     * The publish/subscribe channel on which ending steps announce a run cancelled or failed by the timeout (message:
     * the run id), so that workers can stop its running tasks. Not a key: it carries no hash tag.
     */
    public String runsEndedChannel() {
        return PREFIX + ".runs.ended";
    }

    /** Due times of the shard: members due at their score (epoch ms), released by the coordinator once due. */
    public String dueTimes(int shard) {
        return PREFIX + ".due:" + tag(shard);
    }

    /** Due times of the shard's timers and signal timeouts (members {@code <run> <token>}), scored by epoch ms. */
    public String waitDueTimes(int shard) {
        return PREFIX + ".waits.due:" + tag(shard);
    }

    /**
     * The tokens of the shard's runs that wait for the signal {@code name} with correlation key {@code key} (members
     * {@code <run> <token>}). Signal names cannot hold a colon, so name and key cannot run into each other.
     */
    public String signalWaits(int shard, String name, String key) {
        return PREFIX + ".signal:" + tag(shard) + ":" + name + ":" + key;
    }

    /**
     * What a tenant's signal message with this id was answered (kept a day), so a message sent twice is delivered
     * once. Tenant ids hold no colon, so tenant, name and id cannot run into each other.
     */
    public String signalMessage(String tenant, String name, String messageId) {
        return PREFIX + ".signal.msg:" + tenant + ":" + name + ":" + messageId;
    }

    /**
     * The hops (node executions ended) of a tenant in one minute ({@code minute}: minutes since the epoch), counted
     * for tenants with a quota of hops per minute. The tenant is the hash tag, so one tenant's minutes share a slot
     * and are read with one {@code MGET}.
     */
    public String tenantHops(String tenant, long minute) {
        return PREFIX + ".tenant.hops:{t." + tenant + "}:" + minute;
    }

    /**
     * The run id a start's idempotency key is bound to. It carries no shard's hash tag: a retried start must find it
     * whatever run id, and so shard, it got, and whatever the shard count is by then (were it put on a shard by a hash
     * of the key modulo the shards, adding shards would move it); only single-key commands touch it, so on a cluster
     * it may live in any slot.
     */
    public String idempotencyKey(String key) {
        return PREFIX + ".idem:" + key;
    }

    public RunKeys run(UUID runId) {
        return run(runId, shardOf(runId));
    }

    public RunKeys run(UUID runId, int shard) {
        String base = PREFIX + ".run:" + tag(shard) + ":" + runId + ":";
        return new RunKeys(runId, shard, base + "meta", base + "counter", base + "tokens", base + "consumed",
                base + "ctx", base + "joins", base + "loops", base + "approvals", base + "retries", base + "waits",
                base + "maps");
    }

    /** LLM tokens used by a run's agents, counted with {@code INCRBY} against the per-run limit. */
    public String llmTokens(UUID runId) {
        return PREFIX + ".run:" + tag(shardOf(runId)) + ":" + runId + ":llm_tokens";
    }

    /** The lease of the supervisor that writes the shard's event log (value: its consumer name). */
    public String supervisorLease(int shard) {
        return PREFIX + ".supervisor.lease:" + tag(shard);
    }

    /** The supervisors alive (members: consumer names), scored by their last heartbeat (epoch ms). */
    public String supervisorsAlive() {
        return PREFIX + ".supervisors.alive";
    }

    /** The queue external agent runners take jobs from (seed 001's name, kept for the runners' sake). */
    public String agentJobs() {
        return "agent:jobs";
    }

    /** The queue an external agent runner puts one job's result on. */
    public String agentResults(String jobId) {
        return "agent:results:" + jobId;
    }

    /**
     * The hash tag of a shard. Any shard a run id can carry is accepted, not only those below {@link #shards()}: while
     * shards are being added, an instance not yet configured with the new count still serves the runs started on them
     * (it only does not read their streams).
     */
    private String tag(int shard) {
        if (shard < 0 || shard >= MAX_SHARDS) {
            throw new IllegalArgumentException("Expected a shard in [0, " + MAX_SHARDS + "), but found " + shard);
        }
        return "{" + shard + "}";
    }

    /** The keys of one run; {@link #all()} is everything to delete once the run is finished and persisted. */
    public record RunKeys(UUID runId, int shard, String meta, String counter, String tokens, String consumed,
                          String ctx, String joins, String loops, String approvals, String retries, String waits,
                          String maps) {
        public List<String> all() {
            return List.of(meta, counter, tokens, consumed, ctx, joins, loops, approvals, retries, waits, maps);
        }
    }
}
