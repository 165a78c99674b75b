/**
 * Tenants (workspaces): who they are ({@link io.tokenflow.tenancy.Tenants}), their quotas, and the tenant the current
 * thread acts in ({@link io.tokenflow.tenancy.CurrentTenant}), chosen once where a request enters.
 */
package io.tokenflow.tenancy;
