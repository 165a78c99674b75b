-- Each node's execution within a run (one row per loop iteration), in seed 002's status vocabulary.
CREATE TABLE node_executions (
    run_id      uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id     text        NOT NULL,
    iteration   integer     NOT NULL DEFAULT 0 CHECK (iteration >= 0),
    status      text        NOT NULL CHECK (status IN ('PENDING', 'READY', 'DISPATCHED', 'RUNNING',
                                                       'COMPLETED', 'FAILED', 'CANCELLED')),
    token_id    text,
    attempt     integer     NOT NULL DEFAULT 0,
    worker      text,
    input       jsonb,
    output      jsonb,
    output_ref  text,
    error       text,
    ready_at    timestamptz,
    started_at  timestamptz,
    ended_at    timestamptz,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (run_id, node_id, iteration)
);

CREATE INDEX node_executions_status_idx ON node_executions (status);
