package io.tokenflow.metrics;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.types.NodeTypeSpec;
import io.tokenflow.nodetypes.NodeTypeRegistry;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;

/**
 * Gauges of the whole deployment, read every {@code tokenflow.metrics.refresh-interval} on one thread and kept until
 * the next read (a scrape costs nothing): per worker type and shard the task queue's depth, its oldest waiting entry
 * and the workers busy and idle ({@link TaskQueues}); the dead-letter queue's unresolved entries per node type;
 * approvals pending and overdue (past their timeout, not yet timed out). Every instance reports the same figures, so
 * dashboards take their {@code max} across instances. A read that fails keeps the last figures and is logged.
 */
@Component
class DeploymentGauges implements SmartLifecycle {

    private static final Log log = LogFactory.getLog(DeploymentGauges.class);

    private final MetricsSettings settings;
    private final RedisConnections redis;
    private final RedisKeys keys;
    private final NodeTypeRegistry nodeTypes;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final MultiGauge depth;
    private final MultiGauge oldest;
    private final MultiGauge busy;
    private final MultiGauge idle;
    private final MultiGauge deadLetters;
    private final AtomicLong approvalsPending = new AtomicLong();
    private final AtomicLong approvalsOverdue = new AtomicLong();
    private ScheduledExecutorService reader;

    DeploymentGauges(MetricsSettings settings, RedisConnections redis, RedisKeys keys, NodeTypeRegistry nodeTypes,
                     JdbcClient jdbc, Clock clock, MeterRegistry meters) {
        this.settings = settings;
        this.redis = redis;
        this.keys = keys;
        this.nodeTypes = nodeTypes;
        this.jdbc = jdbc;
        this.clock = clock;
        this.depth = MultiGauge.builder("tokenflow.queue.depth").description("Task stream entries not yet delivered "
                + "or delivered and not acknowledged, per worker type and shard").register(meters);
        this.oldest = MultiGauge.builder("tokenflow.queue.oldest").baseUnit("seconds").description("Age of the oldest "
                + "task stream entry not yet delivered or not acknowledged, per worker type and shard").register(meters);
        this.busy = MultiGauge.builder("tokenflow.workers.busy").description("Workers (consumers of the type's group "
                + "seen lately) holding a task, per worker type and shard").register(meters);
        this.idle = MultiGauge.builder("tokenflow.workers.idle").description("Workers (consumers of the type's group "
                + "seen lately) holding no task, per worker type and shard").register(meters);
        this.deadLetters = MultiGauge.builder("tokenflow.dlq.size").description("Unresolved dead-letter queue "
                + "entries, per node type").register(meters);
        Gauge.builder("tokenflow.approvals.pending", approvalsPending, AtomicLong::get)
                .description("Approvals waiting for a decision").register(meters);
        Gauge.builder("tokenflow.approvals.overdue", approvalsOverdue, AtomicLong::get)
                .description("Approvals waiting for a decision past their timeout").register(meters);
    }

    /** Reads every gauge once (the scheduled read; tests call it to see figures at once). */
    void refresh() {
        try {
            queues();
        } catch (RuntimeException e) {
            log.warn("Could not read the task queues for their gauges; they keep their last figures", e);
        }
        try {
            database();
        } catch (RuntimeException e) {
            log.warn("Could not read the dead-letter queue and approvals for their gauges; they keep their last "
                    + "figures", e);
        }
    }

    private void queues() {
        TaskQueues queues = new TaskQueues(redis.commands(), keys, clock, settings.workerSeen().toMillis());
        List<MultiGauge.Row<?>> depths = new ArrayList<>();
        List<MultiGauge.Row<?>> ages = new ArrayList<>();
        List<MultiGauge.Row<?>> busyRows = new ArrayList<>();
        List<MultiGauge.Row<?>> idleRows = new ArrayList<>();
        for (String type : workerTypes()) {
            for (int shard = 0; shard < keys.shards(); shard++) {
                TaskQueues.Queue queue = queues.read(type, shard);
                Tags tags = Tags.of("type", type, "shard", Integer.toString(shard));
                depths.add(MultiGauge.Row.of(tags, queue.depth()));
                ages.add(MultiGauge.Row.of(tags, queue.oldestMillis() / 1000.0));
                busyRows.add(MultiGauge.Row.of(tags, queue.busy()));
                idleRows.add(MultiGauge.Row.of(tags, queue.idle()));
            }
        }
        depth.register(depths, true);
        oldest.register(ages, true);
        busy.register(busyRows, true);
        idle.register(idleRows, true);
    }

    private TreeSet<String> workerTypes() {
        TreeSet<String> types = new TreeSet<>();
        nodeTypes.snapshot().all().stream().map(NodeTypeSpec::worker).filter(Objects::nonNull).forEach(types::add);
        return types;
    }

    private void database() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        jdbc.sql("select node_type, count(*) from dlq where resolved_at is null group by node_type")
                .query((row, n) -> MultiGauge.Row.of(Tags.of("node_type", row.getString(1)), row.getLong(2)))
                .list().forEach(rows::add);
        deadLetters.register(rows, true);
        long[] approvals = jdbc.sql("select count(*), count(*) filter (where timeout_at < now()) from approvals "
                + "where status = 'PENDING'").query((row, n) -> new long[] {row.getLong(1), row.getLong(2)}).single();
        approvalsPending.set(approvals[0]);
        approvalsOverdue.set(approvals[1]);
    }

    @Override
    public synchronized void start() {
        if (reader != null) {
            return;
        }
        reader = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "metrics-gauges");
            thread.setDaemon(true);
            return thread;
        });
        long every = settings.refreshInterval().toMillis();
        reader.scheduleWithFixedDelay(this::refresh, 0, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (reader != null) {
            reader.shutdownNow();
            reader = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return reader != null;
    }
}
