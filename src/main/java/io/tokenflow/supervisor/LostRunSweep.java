package io.tokenflow.supervisor;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunRecovery;
import io.tokenflow.engine.replay.RunEvents;
import io.tokenflow.logging.RunLogContext;
import io.tokenflow.redis.RunMeta;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds runs that PostgreSQL holds as running but whose Redis state is gone (Redis restarted without its append-only
 * file, was flushed or failed over) or ends before the event log's last event (its append-only file lost its tail),
 * and rebuilds them from the log ({@link RunRecovery}). Every running run is looked at once per check, a page at a
 * time; a run Redis holds at or after its logged events (the normal case: Redis is ahead of the log) costs one
 * {@code HGET}. A run that cannot be rebuilt (its log or its workflow does not allow it) is failed with the reason:
 * its {@code run.failed} goes to the event log through the {@link EventLogWriter} directly, Redis holding nothing of
 * it. A recovery that fails for a passing reason (Redis unreachable) is tried again at the next check.
 *
 * <p>Each check also looks at the starts written before their answer ({@code run_starts}): the rows of runs the
 * event log has are deleted (one statement), and a start the log does not have and Redis no longer holds is made
 * again from its row ({@link RunRecovery}).
 *
 * <p>A check looks at the runs of the shards given, those whose event log this supervisor writes (so supervisors split
 * the work as they split the shards, and no run is rebuilt by two at once); a run on a shard beyond the shard count,
 * left by a deployment with more shards, is no supervisor's.
 */
@Component
class LostRunSweep {

    static final int PAGE = 500;
    private static final Log log = LogFactory.getLog(LostRunSweep.class);

    private final JdbcClient jdbc;
    private final RunMeta meta;
    private final RunRecovery recovery;
    private final EventLogWriter writer;
    private final Clock clock;

    LostRunSweep(JdbcClient jdbc, RunMeta meta, RunRecovery recovery, EventLogWriter writer, Clock clock) {
        this.jdbc = jdbc;
        this.writer = writer;
        this.clock = clock;
        this.meta = meta;
        this.recovery = recovery;
    }

    private record Running(UUID id, int shard, long lastSeq) {
    }

    /** Recovers the running runs of the given shards whose Redis state was lost; returns how many were recovered. */
    int check(Collection<Integer> shards) {
        if (shards.isEmpty()) {
            return 0;
        }
        Integer[] held = shards.toArray(Integer[]::new);
        return recoverUnloggedStarts(held) + recoverRunning(held);
    }

    private int recoverUnloggedStarts(Integer[] shards) {
        jdbc.sql("delete from run_starts s using runs r where r.id = s.id and s.shard = any(:shards)")
                .param("shards", shards).update();
        return sweep(shards, "select s.id, s.shard, 0 as last_seq from run_starts s where s.id > :after "
                + "and s.shard = any(:shards) and not exists (select 1 from runs r where r.id = s.id) order by s.id limit :limit",
                run -> meta.seq(run.id(), run.shard()).isEmpty(), this::recoverUnlogged);
    }

    /** A start whose run cannot be made again has no row to fail: it is logged and tried again at the next check. */
    private boolean recoverUnlogged(Running run) {
        try {
            RunRecovery.Outcome outcome = recovery.recover(run.id(), run.shard(), "system");
            if (outcome instanceof RunRecovery.Recovered done) {
                log.warn("Started run " + run.id() + " again: " + done.reason() + "; " + done.resent().size()
                        + " tasks sent again");
                return true;
            }
            log.debug(((RunRecovery.NotRecovered) outcome).reason());
        } catch (RuntimeException e) {
            log.error("Starting run " + run.id() + " again from the row its start wrote failed; trying again at the "
                    + "next check: " + e.getMessage());
        }
        return false;
    }

    private int recoverRunning(Integer[] shards) {
        return sweep(shards, "select r.id, r.shard, (select max(e.seq) from event_log e where e.run_id = r.id) "
                + "as last_seq from runs r where r.status = 'RUNNING' and r.id > :after and r.shard = any(:shards) "
                + "order by r.id limit :limit", run -> {
                    OptionalLong held = meta.seq(run.id(), run.shard());
                    return held.isEmpty() || held.getAsLong() < run.lastSeq();
                }, this::recover);
    }

    /**
     * Pages through the runs {@code select} finds (ordered by id, after {@code :after}, {@code :limit} at a time, on
     * the {@code :shards} given) and recovers those {@code lost} says Redis lost; returns how many {@code recover}
     * rebuilt.
     */
    private int sweep(Integer[] shards, String select, Predicate<Running> lost, Predicate<Running> recover) {
        int recovered = 0;
        UUID after = new UUID(0, 0);
        List<Running> page;
        do {
            page = jdbc.sql(select).param("after", after).param("limit", PAGE).param("shards", shards)
                    .query((rs, i) -> new Running(rs.getObject("id", UUID.class), rs.getInt("shard"),
                            rs.getLong("last_seq"))).list();
            for (Running run : page) {
                try (RunLogContext context = RunLogContext.of(run.id())) {
                    if (lost.test(run) && recover.test(run)) {
                        recovered++;
                    }
                }
            }
            after = page.isEmpty() ? after : page.get(page.size() - 1).id();
        } while (page.size() == PAGE);
        return recovered;
    }

    private boolean recover(Running run) {
        try {
            RunRecovery.Outcome outcome = recovery.recover(run.id(), run.shard(), "system");
            if (outcome instanceof RunRecovery.Recovered done) {
                log.warn("Recovered run " + run.id() + " from its event log (event " + done.fromSeq() + "): "
                        + done.reason() + "; " + done.resent().size() + " tasks sent again");
                return true;
            }
            log.debug(((RunRecovery.NotRecovered) outcome).reason());
        } catch (IllegalArgumentException | IllegalStateException e) {
            fail(run, "Expected to rebuild the run from its event log after Redis lost its state, but "
                    + e.getMessage());
        } catch (RuntimeException e) {
            log.warn("Recovering run " + run.id() + " from its event log failed; trying again at the next check: "
                    + e.getMessage());
        }
        return false;
    }

    /** Appends {@code run.failed} after the run's last logged event, straight to the log: Redis holds nothing of it. */
    private void fail(Running run, String reason) {
        ArrayNode events = JsonNodeFactory.instance.arrayNode();
        ObjectNode failed = events.addObject().put("seq", run.lastSeq() + 1).put("type", "run.failed")
                .put("at", clock.millis()).putNull("node").putNull("token");
        failed.putObject("data").put("reason", reason).put("dropped", 0);
        writer.write(run.shard(), List.of(new EventsEntry("0-0", run.id(), RunEvents.parse(events))));
        log.error("Failed run " + run.id() + ": " + reason);
    }
}
