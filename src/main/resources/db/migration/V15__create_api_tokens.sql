-- Bearer tokens for scripts, agents and external workers. Only a hash of the secret is stored.
CREATE TABLE api_tokens (
    id           uuid        PRIMARY KEY,
    name         text        NOT NULL,
    owner        text        NOT NULL REFERENCES users (username) ON DELETE CASCADE,
    token_hash   text        NOT NULL,
    scopes       jsonb       NOT NULL DEFAULT '[]'::jsonb,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    CONSTRAINT api_tokens_hash_unique UNIQUE (token_hash)
);

CREATE INDEX api_tokens_owner_idx ON api_tokens (owner);
