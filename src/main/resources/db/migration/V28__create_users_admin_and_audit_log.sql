-- The audit log (io.tokenflow.security.AuditLog): sign-ins (and failed ones), sign-outs and administrative actions
-- (people, worker keys, API tokens), newest first by id. actor: who did it ('-' when a failed sign-in named nobody);
-- target: what it was done to (a username, a key id, a token id); details: what changed.
CREATE TABLE audit_log (
    id             bigserial   PRIMARY KEY,
    at             timestamptz NOT NULL,
    actor          text        NOT NULL,
    action         text        NOT NULL,
    target         text,
    details        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    remote_address text
);

CREATE INDEX audit_log_actor_idx ON audit_log (actor, id DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC);
