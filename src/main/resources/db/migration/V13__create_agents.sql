-- Registry of external agents reachable over HTTP (name -> URL, auth, timeout, retry policy).
CREATE TABLE agents (
    name         text        PRIMARY KEY CHECK (name ~ '^[A-Za-z][A-Za-z0-9_.-]{0,62}$'),
    url          text        NOT NULL,
    auth         jsonb       NOT NULL DEFAULT '{}'::jsonb,
    timeout_ms   integer     NOT NULL DEFAULT 30000 CHECK (timeout_ms > 0),
    retry_policy jsonb       NOT NULL DEFAULT '{}'::jsonb,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);
