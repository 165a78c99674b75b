package io.tokenflow.supervisor;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.tokenflow.coordinator.RunTerminator;
import io.tokenflow.logging.RunLogContext;
import io.tokenflow.redis.RedisConnections;
import io.tokenflow.redis.RedisKeys;
import io.tokenflow.redis.RunMeta;

/**
 * Fails runs with no activity for {@code inactivityTimeout}: the active-runs set of each shard is scored by last
 * activity (refreshed at most once a second while a run is busy), so the idle ones are a range query. The
 * {@link RunTerminator} checks the run's exact last activity and appends {@code run.failed} in one atomic step, which
 * the event log writer then persists like any other event; a run active since gets its score brought up to date.
 */
@Component
class TimeoutDetector {

    static final int MAX_PER_CHECK = 1_000;
    private static final Log log = LogFactory.getLog(TimeoutDetector.class);

    private final RedisConnections redis;
    private final RedisKeys keys;
    private final RunMeta meta;
    private final ObjectProvider<RunTerminator> terminator;
    private final SupervisorSettings settings;
    private final Clock clock;
    private volatile boolean warnedMissingTerminator;

    TimeoutDetector(RedisConnections redis, RedisKeys keys, RunMeta meta, ObjectProvider<RunTerminator> terminator,
                    SupervisorSettings settings, Clock clock) {
        this.meta = meta;
        this.redis = redis;
        this.keys = keys;
        this.terminator = terminator;
        this.settings = settings;
        this.clock = clock;
    }

    /** Fails the idle runs of the given shards (those this supervisor holds); returns how many were failed. */
    int check(Collection<Integer> shards) {
        RunTerminator runs = terminator.getIfAvailable();
        if (runs == null) {
            if (!warnedMissingTerminator) {
                warnedMissingTerminator = true;
                log.warn("Expected a RunTerminator to fail idle runs, but there is none; idle runs are not failed");
            }
            return 0;
        }
        int failed = 0;
        for (int shard : shards) {
            failed += check(shard, runs);
        }
        return failed;
    }

    private int check(int shard, RunTerminator runs) {
        Instant idleSince = clock.instant().minus(settings.inactivityTimeout());
        List<ScoredValue<String>> idle = redis.commands().zrangebyscoreWithScores(keys.activeRuns(shard),
                Range.from(Range.Boundary.unbounded(), Range.Boundary.including(idleSince.toEpochMilli())),
                Limit.create(0, MAX_PER_CHECK));
        int failed = 0;
        for (ScoredValue<String> run : idle) {
            failed += failIdle(shard, UUID.fromString(run.getValue()), Instant.ofEpochMilli((long) run.getScore()),
                    idleSince, runs) ? 1 : 0;
        }
        return failed;
    }

    private boolean failIdle(int shard, UUID run, Instant lastActivity, Instant idleSince, RunTerminator runs) {
        boolean failed = runs.failIdle(run, idleSince, "Expected activity within " + settings.inactivityTimeout()
                + ", but the run was idle since " + lastActivity);
        if (failed) {
            try (RunLogContext context = RunLogContext.of(run)) {
                log.info("Failed run " + run + ": idle since " + lastActivity);
            }
        } else if (!meta.exists(run, shard)) {
            redis.commands().zrem(keys.activeRuns(shard), run.toString());
        }
        return failed;
    }
}
