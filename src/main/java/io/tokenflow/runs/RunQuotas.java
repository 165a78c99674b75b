package io.tokenflow.runs;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import io.tokenflow.tenancy.Tenant;
import io.tokenflow.tenancy.TenantHops;
import io.tokenflow.tenancy.Tenants;
import io.tokenflow.web.Outages;
import io.tokenflow.web.TooManyRequestsException;

/**
 * A tenant's quotas, checked where a run starts (the API, webhooks, cron fires, sub-workflow nodes): a start beyond
 * one is refused with 429. <b>Hops per minute</b> ({@code tenants.max_hops_per_minute}): while the tenant's last minute
 * holds that many hops ({@link TenantHops}, counted by the supervisor as it writes the event log) no run starts; runs
 * already going are not held back, so a tenant's work in the minute may exceed the quota by what its runs in flight
 * do. <b>Runs in flight</b> ({@code tenants.max_runs_in_flight}): Runs
 * in flight are counted in PostgreSQL: runs whose row says pending or running, and started runs whose row the event log
 * has not written yet ({@code run_starts}). A run counts until the supervisor writes its end (usually milliseconds
 * after it ends). The starts of one tenant with a quota are taken one at a time on an instance (count, start, row
 * committed), so an instance never lets two through for the last place; several instances starting runs of one
 * tenant in the same instant may each take it (the quota is then exceeded by at most one run per other instance).
 * Tenants without a quota pay nothing (the quota is cached, {@link Tenants#cached}). While PostgreSQL is away the
 * count cannot be made and starts go on (they write no row then either), logged once per start.
 */
@Component
class RunQuotas {

    static final Duration RETRY_AFTER = Duration.ofSeconds(5);
    private static final Log log = LogFactory.getLog(RunQuotas.class);

    private final Tenants tenants;
    private final JdbcClient jdbc;
    private final TenantHops hops;
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    RunQuotas(Tenants tenants, JdbcClient jdbc, TenantHops hops) {
        this.hops = hops;
        this.tenants = tenants;
        this.jdbc = jdbc;
    }

    /** Runs {@code start} if the tenant has room for one more run in flight; throws 429 otherwise. */
    <T> T admit(String tenant, Supplier<T> start) {
        Tenant.Quotas quotas;
        try {
            quotas = tenants.cached(tenant).map(Tenant::quotas).orElse(Tenant.Quotas.NONE);
        } catch (RuntimeException e) {
            Outages.of(e).orElseThrow(() -> e);
            log.warn("Started a run of tenant '" + tenant + "' without checking its quota: PostgreSQL is unreachable");
            return start.get();
        }
        if (quotas.maxHopsPerMinute() != null) {
            checkHops(tenant, quotas.maxHopsPerMinute());
        }
        Optional<Integer> quota = Optional.ofNullable(quotas.maxRunsInFlight());
        if (quota.isEmpty()) {
            return start.get();
        }
        synchronized (locks.computeIfAbsent(tenant, key -> new Object())) {
            long inFlight;
            try {
                inFlight = inFlight(tenant);
            } catch (RuntimeException e) {
                Outages.of(e).orElseThrow(() -> e);
                log.warn("Started a run of tenant '" + tenant + "' without checking its quota: PostgreSQL is "
                        + "unreachable");
                return start.get();
            }
            if (inFlight >= quota.get()) {
                throw new TooManyRequestsException("Expected tenant '" + tenant + "' to have fewer than "
                        + quota.get() + " runs in flight (its quota), but it has " + inFlight + "; start again once "
                        + "some have ended", RETRY_AFTER, Map.of("quota", "maxRunsInFlight", "limit", quota.get(),
                        "inFlight", inFlight));
            }
            return start.get();
        }
    }

    private void checkHops(String tenant, int limit) {
        long lastMinute = hops.lastMinute(tenant);
        if (lastMinute >= limit) {
            throw new TooManyRequestsException("Expected tenant '" + tenant + "' to have made fewer than " + limit
                    + " hops in the last minute (its quota), but it made " + lastMinute + "; start again when its "
                    + "runs have done less", hops.untilNextMinute(), Map.of("quota", "maxHopsPerMinute", "limit", limit,
                    "hopsLastMinute", lastMinute));
        }
    }

    long inFlight(String tenant) {
        return jdbc.sql("""
                select (select count(*) from runs r join workflows w on w.id = r.workflow_id
                        where w.tenant_id = :tenant and r.status in ('PENDING', 'RUNNING'))
                     + (select count(*) from run_starts s join workflows w on w.id = s.workflow_id
                        where w.tenant_id = :tenant and not exists (select 1 from runs r where r.id = s.id))""")
                .param("tenant", tenant).query(Long.class).single();
    }
}
