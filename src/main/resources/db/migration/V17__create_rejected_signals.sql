-- Completion signals the coordinator refused (unknown run or node, a token not in flight, malformed fields).
CREATE TABLE rejected_signals (
    id              bigserial   PRIMARY KEY,
    received_at     timestamptz NOT NULL,
    shard           integer     NOT NULL,
    stream_entry_id text        NOT NULL,
    run_id          text,
    token_id        text,
    node_id         text,
    reason          text        NOT NULL,
    fields          jsonb       NOT NULL
);

CREATE INDEX rejected_signals_run_idx ON rejected_signals (run_id, id DESC);
