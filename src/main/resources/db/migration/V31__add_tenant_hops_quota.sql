-- A tenant's quota of hops (node executions ended: completed or failed, map items included) per minute; NULL is no
-- limit. A start is refused (429) while the tenant's last minute holds this many hops (counted in Redis by the
-- supervisor, tenancy.TenantHops); runs already going are not held back.
ALTER TABLE tenants ADD COLUMN max_hops_per_minute integer CHECK (max_hops_per_minute >= 1);
