package io.tokenflow.supervisor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.stereotype.Component;

import io.tokenflow.engine.replay.MapItemCompleted;
import io.tokenflow.engine.replay.MapItemFailed;
import io.tokenflow.engine.replay.NodeCompleted;
import io.tokenflow.engine.replay.NodeFailed;
import io.tokenflow.engine.replay.NodeRetrying;
import io.tokenflow.engine.replay.RunEvent;
import io.tokenflow.tenancy.RunTenants;
import io.tokenflow.tenancy.TenantHops;
import io.tokenflow.tenancy.Tenants;

/**
 * Counts the hops of each logged batch for the tenants with a quota of hops per minute ({@link TenantHops}): one per
 * node execution that ended — completed, failed, or failed and tried again — and per map element completed or failed.
 * Tenants without that quota cost nothing beyond one look at a cached set per batch. A batch written again after a
 * failure before its acknowledgement is counted again (the count errs towards refusing). The count never stops the
 * event log: when Redis or PostgreSQL refuse, the batch's hops are left out, logged.
 */
@Component
class HopTally {

    private static final Log log = LogFactory.getLog(HopTally.class);

    private final Tenants tenants;
    private final RunTenants runTenants;
    private final TenantHops hops;

    HopTally(Tenants tenants, RunTenants runTenants, TenantHops hops) {
        this.tenants = tenants;
        this.runTenants = runTenants;
        this.hops = hops;
    }

    /** Counts the hops of entries just written to the event log. */
    void count(List<EventsEntry> logged) {
        try {
            Set<String> limited = tenants.withHopsQuota();
            if (limited.isEmpty()) {
                return;
            }
            Map<String, Long> byTenant = new HashMap<>();
            for (EventsEntry entry : logged) {
                long ended = entry.events().stream().filter(HopTally::isHop).count();
                if (ended > 0) {
                    runTenants.ofRun(entry.run()).filter(limited::contains)
                            .ifPresent(tenant -> byTenant.merge(tenant, ended, Long::sum));
                }
            }
            byTenant.forEach(hops::add);
        } catch (RuntimeException e) {
            log.warn("Could not count the hops of " + logged.size() + " event log entries for the tenants' quotas; "
                    + "they are left out", e);
        }
    }

    static boolean isHop(RunEvent event) {
        return event instanceof NodeCompleted || event instanceof NodeFailed || event instanceof NodeRetrying
                || event instanceof MapItemCompleted || event instanceof MapItemFailed;
    }
}
