-- The tenants that stored each CAS object (cas_objects keeps the content once, whoever stored it): a tenant reads
-- through the API only what it stored, and a worker's output_ref must name content of its run's tenant. Objects
-- stored before tenants kept theirs apart could be any tenant's, so each existing tenant owns them all.
CREATE TABLE cas_owners (
    tenant_id  text  NOT NULL REFERENCES tenants (id),
    hash       text  NOT NULL REFERENCES cas_objects (hash),
    PRIMARY KEY (tenant_id, hash)
);

INSERT INTO cas_owners (tenant_id, hash) SELECT t.id, o.hash FROM tenants t CROSS JOIN cas_objects o;
