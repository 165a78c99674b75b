-- Tenants (workspaces, io.tokenflow.tenancy): every workflow, and through it its versions, tags, triggers, runs and
-- what hangs off a run (events, approvals, DLQ entries, quarantine, sub-workflow calls), belongs to one tenant; so
-- do API tokens (a token acts in the tenant it was created in) and worker keys (NULL: the application's built-in
-- key, which serves every tenant). A person belongs to the tenants users.tenants lists. Rows that existed before
-- tenants belong to 'default'. max_runs_in_flight: NULL is no limit.
CREATE TABLE tenants (
    id                  text        PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
    name                text        NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    max_runs_in_flight  integer     CHECK (max_runs_in_flight >= 1),
    created_at          timestamptz NOT NULL,
    created_by          text        NOT NULL
);

INSERT INTO tenants (id, name, created_at, created_by) VALUES ('default', 'Default', now(), 'migration');

ALTER TABLE users ADD COLUMN tenants jsonb NOT NULL DEFAULT '["default"]'::jsonb;

ALTER TABLE workflows ADD COLUMN tenant_id text REFERENCES tenants (id);
UPDATE workflows SET tenant_id = 'default';
ALTER TABLE workflows ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE workflows DROP CONSTRAINT workflows_name_unique;
ALTER TABLE workflows ADD CONSTRAINT workflows_name_unique UNIQUE (tenant_id, name);

ALTER TABLE api_tokens ADD COLUMN tenant_id text REFERENCES tenants (id);
UPDATE api_tokens SET tenant_id = 'default';
ALTER TABLE api_tokens ALTER COLUMN tenant_id SET NOT NULL;

ALTER TABLE worker_keys ADD COLUMN tenant_id text REFERENCES tenants (id);
UPDATE worker_keys SET tenant_id = 'default' WHERE NOT built_in;
ALTER TABLE worker_keys ADD CONSTRAINT worker_keys_tenant_unless_built_in CHECK (built_in = (tenant_id IS NULL));
