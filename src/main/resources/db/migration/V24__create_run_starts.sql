-- What a start wrote before it was answered (runs.StartRows): enough to start the run again should Redis lose it
-- before its run.started reaches the event log. Insert-only and narrow, so that a start costs PostgreSQL little; the
-- supervisor deletes the rows of runs the event log has written (their runs row then holds the same).
CREATE TABLE run_starts (
    id               uuid        PRIMARY KEY,
    workflow_id      uuid        NOT NULL,
    workflow_version integer     NOT NULL,
    tag              text,
    shard            integer     NOT NULL,
    idempotency_key  text,
    inputs           json        NOT NULL,
    submitted_by     text,
    started_at       timestamptz NOT NULL
);

CREATE INDEX run_starts_idempotency_key_idx ON run_starts (idempotency_key) WHERE idempotency_key IS NOT NULL;
