-- Custom node types and external agents belong to one tenant: only its people and tokens see, change and use them.
-- A node type's name stays unique across tenants: it names the task stream its workers read (wf.tasks.<name>), so
-- the stream carries one tenant's tokens only. Agent names are unique per tenant (the http_agent worker looks an
-- agent up in its run's tenant). Rows that existed before belong to 'default'.
ALTER TABLE node_types ADD COLUMN tenant_id text REFERENCES tenants (id);
UPDATE node_types SET tenant_id = 'default';
ALTER TABLE node_types ALTER COLUMN tenant_id SET NOT NULL;

ALTER TABLE agents ADD COLUMN tenant_id text REFERENCES tenants (id);
UPDATE agents SET tenant_id = 'default';
ALTER TABLE agents ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE agents DROP CONSTRAINT agents_pkey;
ALTER TABLE agents ADD PRIMARY KEY (tenant_id, name);
