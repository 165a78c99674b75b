package io.tokenflow.tenancy;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The tenant the current thread acts in. The security filter chain sets it once per request, after authentication
 * (a token's tenant, or the tenant a person chose for their session), and clears it afterwards; the engine sets it
 * around work done for one run (a sub-workflow started by a run acts in the run's tenant). Reads of tenant-owned rows
 * are limited to it; a thread with none set (the engine's own threads, anonymous webhook requests that name a
 * workflow by id) reads every tenant's rows.
 *
 * <p>Written by hand as a thread-local, like Spring Security's {@code SecurityContextHolder}: the tenant is carried
 * from the request's entry to the queries without threading a parameter through every service.
 */
public final class CurrentTenant {

    /** The tenant of rows that existed before tenants, and of people and tokens not given another. */
    public static final String DEFAULT = "default";

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    private CurrentTenant() {
    }

    /** The tenant this thread acts in; empty when it acts for no one tenant (engine threads). */
    public static Optional<String> get() {
        return Optional.ofNullable(TENANT.get());
    }

    /** The tenant this thread acts in, or {@code null} for every tenant: a query parameter. */
    public static String orNull() {
        return TENANT.get();
    }

    /** The tenant new rows are created in: the current one, or {@link #DEFAULT} on a thread acting for none. */
    public static String forNewRows() {
        String tenant = TENANT.get();
        return tenant == null ? DEFAULT : tenant;
    }

    /** Whether a row of {@code tenant} may be seen from this thread. */
    public static boolean sees(String tenant) {
        String current = TENANT.get();
        return current == null || current.equals(tenant);
    }

    /** Sets this thread's tenant until {@link #clear()}; for the filter that chooses it where a request enters. */
    public static void set(String tenant) {
        TENANT.set(tenant);
    }

    public static void clear() {
        TENANT.remove();
    }

    /** Runs {@code work} acting in {@code tenant}, then restores what this thread acted in before. */
    public static <T> T callAs(String tenant, Supplier<T> work) {
        String before = TENANT.get();
        TENANT.set(tenant);
        try {
            return work.get();
        } finally {
            if (before == null) {
                TENANT.remove();
            } else {
                TENANT.set(before);
            }
        }
    }
}
