package io.tokenflow.tenancy;

/**
 * SQL conditions that limit rows to the current tenant, for queries that bind {@code :tenant} to
 * {@link CurrentTenant#orNull()} (null: every tenant).
 */
public final class TenantSql {

    private TenantSql() {
    }

    /** Rows whose workflow (the table alias {@code workflows}) belongs to {@code :tenant}. */
    public static String ownsWorkflow(String workflows) {
        return "(cast(:tenant as text) is null or " + workflows + ".tenant_id = :tenant)";
    }

    /**
     * Rows whose run (the uuid expression {@code run}) belongs to {@code :tenant}: its workflow is the tenant's, found
     * through the run's row or, for a run the event log has not written yet, its start's. Rows of no known run (a
     * signal naming a made-up run, an event that names none) belong to the default tenant.
     */
    public static String ownsRun(String run) {
        String workflow = "coalesce((select r.workflow_id from runs r where r.id = " + run + "), "
                + "(select s.workflow_id from run_starts s where s.id = " + run + "))";
        return "(cast(:tenant as text) is null or exists (select 1 from workflows tw where tw.tenant_id = :tenant and "
                + "tw.id = " + workflow + ") or (cast(:tenant as text) = '" + CurrentTenant.DEFAULT + "' and "
                + workflow + " is null))";
    }

    /** A uuid from a text column that may hold anything (null when it is not a uuid), for {@link #ownsRun}. */
    public static String uuidOrNull(String textColumn) {
        return "(case when " + textColumn + " ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                + "[0-9a-fA-F]{12}$' then cast(" + textColumn + " as uuid) end)";
    }
}
