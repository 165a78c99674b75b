-- Append-only history of every state change of a run, strictly ordered by a per-run sequence number.
CREATE TABLE event_log (
    run_id      uuid        NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq         bigint      NOT NULL CHECK (seq >= 1),
    event_type  text        NOT NULL,
    node_id     text,
    token_id    text,
    data        jsonb       NOT NULL,
    occurred_at timestamptz NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT event_log_run_seq_unique PRIMARY KEY (run_id, seq)
);

