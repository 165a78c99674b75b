-- Workflow triggers (io.tokenflow.triggers).
-- trigger_fires: one row per cron tick an instance claimed. The primary key is the claim: every instance inserts the
-- tick with ON CONFLICT DO NOTHING and only the one whose insert took it starts the run, so no tick fires twice.
-- outcome: claimed (the start is under way; another instance takes it over after tokenflow.triggers.claim-timeout),
-- started (run_id is the run), skipped (missed ticks the 'skip' policy passed over; fire_at is the last of them),
-- failed (the start was refused; error says why). missed_ticks: how many missed ticks this row stands for (fire_once
-- or skip after downtime; 0 for a tick fired on time).
CREATE TABLE trigger_fires (
    workflow_id      uuid        NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    trigger_id       text        NOT NULL,
    fire_at          timestamptz NOT NULL,
    workflow_version integer     NOT NULL,
    outcome          text        NOT NULL CHECK (outcome IN ('claimed', 'started', 'skipped', 'failed')),
    missed_ticks     integer     NOT NULL DEFAULT 0,
    run_id           uuid,
    error            text,
    claimed_at       timestamptz NOT NULL,
    claimed_by       text        NOT NULL,
    PRIMARY KEY (workflow_id, trigger_id, fire_at)
);

-- Claims whose start never finished (their instance died in between), for another instance to take over.
CREATE INDEX trigger_fires_claimed_idx ON trigger_fires (claimed_at) WHERE outcome = 'claimed';

-- The secret of each webhook trigger: SHA-256 of it for auth 'secret'; for 'hmac' (the server needs the secret itself
-- to compute signatures) sealed with AES-GCM under tokenflow.triggers.secret-key.
CREATE TABLE trigger_secrets (
    workflow_id   uuid        NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    trigger_id    text        NOT NULL,
    auth          text        NOT NULL CHECK (auth IN ('secret', 'hmac')),
    secret_sha256 text,
    secret_sealed text,
    rotated_at    timestamptz NOT NULL,
    rotated_by    text        NOT NULL,
    PRIMARY KEY (workflow_id, trigger_id),
    CHECK ((auth = 'secret') = (secret_sha256 IS NOT NULL) AND (auth = 'hmac') = (secret_sealed IS NOT NULL))
);

-- Every refused webhook call, for operators: never its body, only its size.
CREATE TABLE trigger_refusals (
    id             bigserial   PRIMARY KEY,
    received_at    timestamptz NOT NULL,
    workflow       text        NOT NULL,
    workflow_id    uuid,
    trigger_id     text        NOT NULL,
    status         integer     NOT NULL,
    reason         text        NOT NULL,
    remote_address text,
    body_bytes     integer     NOT NULL
);

CREATE INDEX trigger_refusals_workflow_idx ON trigger_refusals (workflow_id, id DESC);
