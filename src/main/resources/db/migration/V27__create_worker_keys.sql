-- Worker keys (io.tokenflow.signing): each signs completions-stream signals with HMAC-SHA256 under its secret. The
-- server needs the secret itself to check signatures, so it is kept as issued (protect backups of this table as you
-- would the workers' configuration). built_in: the key this application's own components sign with (one active at a
-- time; rotation creates a new one and revokes the old after tokenflow.signals.built-in-grace). revoked_at: signals
-- written to Redis from then on are refused (it may lie in the future: a rotation's grace).
CREATE TABLE worker_keys (
    id         text        PRIMARY KEY,
    name       text        NOT NULL,
    secret     text        NOT NULL,
    built_in   boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    created_by text        NOT NULL,
    revoked_at timestamptz
);

CREATE INDEX worker_keys_built_in_idx ON worker_keys (created_at DESC) WHERE built_in;
