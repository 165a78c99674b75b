package io.tokenflow.supervisor;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the supervisor drains events and watches runs.
 *
 * @param enabled              whether this instance supervises at all (the lag can be read either way)
 * @param batchSize            events-stream entries written to PostgreSQL per transaction
 * @param block                how long one read waits for new entries
 * @param linger               after a read that found entries but did not fill a batch, the next read waits until
 *                             this long after it began ({@code 0}: reads at once), so that under load batches grow:
 *                             fewer and larger transactions, and more runs whose whole life is in one batch (a node
 *                             execution then written once instead of inserted and updated). The first entry after a
 *                             quiet spell is read at once; live views tail the events stream and do not wait for this
 * @param inactivityTimeout    a running run with no activity for this long is failed
 * @param timeoutCheckInterval how often idle runs are looked for
 * @param snapshotInterval     how often the counters of active runs are snapshotted
 * @param claimIdle            entries another supervisor read but did not acknowledge for this long are taken over
 * @param recoveryCheckInterval how often runs running in PostgreSQL whose Redis state was lost are looked for (and
 *                             rebuilt from the event log, docs/recovery.md)
 * @param finishedRunRetention how long a finished run's Redis keys stay after its end is persisted, so that late
 *                             duplicate signals are still recognised as duplicates ({@code 0}: deleted at once)
 * @param shardLease           how long a supervisor's lease of a shard lasts unless kept (it is kept every quarter
 *                             of it): a supervisor that dies has its shards taken over by others within this much
 */
@ConfigurationProperties("tokenflow.supervisor")
public record SupervisorSettings(@DefaultValue("true") boolean enabled, @DefaultValue("1000") int batchSize,
                                 @DefaultValue("200ms") Duration block, @DefaultValue("100ms") Duration linger,
                                 @DefaultValue("5m") Duration inactivityTimeout,
                                 @DefaultValue("5s") Duration timeoutCheckInterval,
                                 @DefaultValue("10s") Duration snapshotInterval, @DefaultValue("30s") Duration claimIdle,
                                 @DefaultValue("1m") Duration finishedRunRetention,
                                 @DefaultValue("10s") Duration recoveryCheckInterval,
                                 @DefaultValue("10s") Duration shardLease) {

    public SupervisorSettings {
        if (batchSize < 1) {
            throw new IllegalArgumentException("Expected tokenflow.supervisor.batch-size >= 1, but found " + batchSize);
        }
        requirePositive("block", block);
        if (linger.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.supervisor.linger >= 0, but found " + linger);
        }
        requirePositive("inactivity-timeout", inactivityTimeout);
        requirePositive("timeout-check-interval", timeoutCheckInterval);
        requirePositive("snapshot-interval", snapshotInterval);
        requirePositive("claim-idle", claimIdle);
        requirePositive("recovery-check-interval", recoveryCheckInterval);
        if (shardLease.toMillis() < 400) {
            throw new IllegalArgumentException("Expected tokenflow.supervisor.shard-lease >= 400ms, but found "
                    + shardLease);
        }
        if (finishedRunRetention.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.supervisor.finished-run-retention >= 0, but found "
                    + finishedRunRetention);
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException("Expected tokenflow.supervisor." + name + " > 0, but found " + value);
        }
    }
}
