-- Dead-letter queue: tokens whose node failed permanently or exhausted its retries.
CREATE TABLE dlq (
    id          uuid        PRIMARY KEY,
    run_id      uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id     text        NOT NULL,
    node_type   text        NOT NULL,
    token_id    text        NOT NULL,
    attempts    integer     NOT NULL DEFAULT 1,
    error_kind  text        NOT NULL CHECK (error_kind IN ('TRANSIENT', 'PERMANENT')),
    error       text        NOT NULL,
    payload     jsonb,
    payload_ref text,
    created_at  timestamptz NOT NULL,
    resolved_at timestamptz,
    resolution  text        CHECK (resolution IN ('REQUEUED', 'DISCARDED')),
    resolved_by text,
    CONSTRAINT dlq_token_unique UNIQUE (run_id, token_id)
);

CREATE INDEX dlq_unresolved_idx ON dlq (created_at) WHERE resolved_at IS NULL;
