-- Periodic snapshots of a run's token counter, for recovery and diagnosis.
CREATE TABLE run_counter_snapshots (
    run_id      uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    snapshot_at timestamptz NOT NULL,
    value       integer     NOT NULL,
    last_seq    bigint      NOT NULL,
    PRIMARY KEY (run_id, snapshot_at)
);
