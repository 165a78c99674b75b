-- One execution of a pinned workflow version. Hot state lives in Redis; this row is the durable summary.
CREATE TABLE runs (
    id               uuid        PRIMARY KEY,
    workflow_id      uuid        NOT NULL,
    workflow_version integer     NOT NULL,
    tag              text,
    ir_revision      integer     NOT NULL DEFAULT 0,
    shard            integer     NOT NULL DEFAULT 0 CHECK (shard >= 0),
    status           text        NOT NULL CHECK (status IN ('PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')),
    idempotency_key  text,
    inputs           jsonb       NOT NULL DEFAULT '{}'::jsonb,
    outputs          jsonb,
    error            text,
    submitted_by     text,
    final_counter    integer,
    dlq_count        integer     NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL,
    started_at       timestamptz,
    ended_at         timestamptz,
    last_event_at    timestamptz,
    FOREIGN KEY (workflow_id, workflow_version) REFERENCES workflow_versions (workflow_id, version),
    CONSTRAINT runs_idempotency_key_unique UNIQUE (idempotency_key)
);

CREATE INDEX runs_status_idx ON runs (status);
CREATE INDEX runs_created_at_idx ON runs (created_at DESC);
CREATE INDEX runs_workflow_idx ON runs (workflow_id, workflow_version);
