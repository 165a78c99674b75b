-- Human-in-the-loop approvals created when a token reaches a human node.
CREATE TABLE approvals (
    id                uuid        PRIMARY KEY,
    run_id            uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    node_id           text        NOT NULL,
    token_id          text        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'TIMED_OUT', 'CANCELLED')),
    approvers         jsonb       NOT NULL DEFAULT '[]'::jsonb,
    escalation_policy text,
    escalated_to      jsonb,
    escalation_level  integer     NOT NULL DEFAULT 0,
    title             text,
    payload           jsonb,
    payload_ref       text,
    decision          text        CHECK (decision IN ('approve', 'reject')),
    decided_by        text,
    comment           text,
    created_at        timestamptz NOT NULL,
    timeout_at        timestamptz,
    decided_at        timestamptz,
    lock_version      integer     NOT NULL DEFAULT 0,
    CONSTRAINT approvals_token_unique UNIQUE (run_id, token_id)
);

CREATE INDEX approvals_run_idx ON approvals (run_id);
CREATE INDEX approvals_pending_idx ON approvals (status) WHERE status = 'PENDING';
CREATE INDEX approvals_timeout_idx ON approvals (timeout_at) WHERE status = 'PENDING';
